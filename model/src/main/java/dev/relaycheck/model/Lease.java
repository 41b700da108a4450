package dev.relaycheck.model;

/**
 * A poller's claim on an outbox row.
 *
 * @param owner      the poller holding it
 * @param token      the fencing token issued by the claim; acks and releases must present it
 * @param expiry     the logical instant at which the lease expires ({@link #NEVER} for a lease that never does)
 * @param clockSkew  the clock {@code expiry} is on, as its offset from the database's: 0 for a relay that writes
 *                   expiry on the database's clock, the writer's skew for one that writes it on the poller's own
 *                   (a scenario with clock skew; 0 everywhere else)
 */
public record Lease(String owner, long token, int expiry, int clockSkew) {

    /** Expiry of a lease that never expires (what the "lease never expires" variant writes). */
    public static final int NEVER = Integer.MAX_VALUE;

    /** A lease whose expiry is on the database's clock. */
    public Lease(String owner, long token, int expiry) {
        this(owner, token, expiry, 0);
    }

    /** A lease is expired from its expiry instant on: claimed at 0 for 2 ticks, it is expired at 2. */
    public boolean expiredAt(int now) {
        return now >= expiry;
    }

    /**
     * Whether the lease is live when the database's clock reads {@code dbNow}, judged on the clock its expiry was
     * written on: a lease written on a poller's clock that runs ahead ends earlier on the database's, one written on
     * a clock behind it later.
     */
    public boolean liveAt(int dbNow) {
        return expiry == NEVER || dbNow + clockSkew < expiry;
    }

    /** The same lease with another token (the search renumbers tokens). */
    public Lease withToken(long other) {
        return new Lease(owner, other, expiry, clockSkew);
    }

    @Override
    public String toString() {
        return owner + "/t" + token + "/exp" + (expiry == NEVER ? "never" : Integer.toString(expiry))
                + (clockSkew == 0 ? "" : " on a clock db" + (clockSkew > 0 ? "+" : "") + clockSkew);
    }
}
