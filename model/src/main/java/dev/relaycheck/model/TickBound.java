package dev.relaycheck.model;

/**
 * How far a scenario's clock may run: to a fixed tick, or a number of ticks beyond the lease the logic under
 * test grants. A hazard that needs a lease to expire (a re-claim, a stale ack) is only reachable if the clock
 * gets past the lease; a fixed bound equal to the scenario's lease would make a correct logic with a longer
 * lease look vacuous, so the reference scenarios that need expiry say {@code lease+K}.
 *
 * @param ticks       the fixed bound, or the ticks beyond the granted lease
 * @param beyondLease true: {@code ticks} counts beyond the granted lease
 */
public record TickBound(int ticks, boolean beyondLease) {
    private static final String LEASE = "lease";

    public TickBound {
        if (ticks < 0) {
            throw new IllegalArgumentException("a tick bound must be >= 0, got " + ticks);
        }
    }

    /** The clock never passes {@code tick}, whatever lease the logic grants. */
    public static TickBound at(int tick) {
        return new TickBound(tick, false);
    }

    /** The clock runs {@code extra} ticks past the lease the logic grants. */
    public static TickBound beyondLease(int extra) {
        return new TickBound(extra, true);
    }

    /** The clock bound for a logic whose claims at tick 0 are granted {@code grantedLease} ticks. */
    public int resolve(int grantedLease) {
        return beyondLease ? grantedLease + ticks : ticks;
    }

    /** Parses {@code 4}, {@code lease} or {@code lease+2} (spaces allowed around the plus). */
    public static TickBound parse(String text) {
        String t = text.replace(" ", "");
        try {
            if (t.equals(LEASE)) {
                return beyondLease(0);
            }
            if (t.startsWith(LEASE + "+")) {
                return beyondLease(Integer.parseInt(t.substring(LEASE.length() + 1)));
            }
            return at(Integer.parseInt(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("tick bound '" + text + "' is not a number N or lease+N");
        }
    }

    /** {@code 4} or {@code lease+2}: what {@link #parse} reads back. */
    @Override
    public String toString() {
        return beyondLease ? LEASE + "+" + ticks : Integer.toString(ticks);
    }
}
