package dev.relaycheck.model;

/**
 * A poller's claim on an outbox row.
 *
 * @param owner  the poller holding it
 * @param token  the fencing token issued by the claim; acks and releases must present it
 * @param expiry the logical instant at which the lease expires ({@link #NEVER} for a lease that never does)
 */
public record Lease(String owner, long token, int expiry) {

    /** Expiry of a lease that never expires (what the "lease never expires" variant writes). */
    public static final int NEVER = Integer.MAX_VALUE;

    /** A lease is expired from its expiry instant on: claimed at 0 for 2 ticks, it is expired at 2. */
    public boolean expiredAt(int now) {
        return now >= expiry;
    }

    @Override
    public String toString() {
        return owner + "/t" + token + "/exp" + (expiry == NEVER ? "never" : Integer.toString(expiry));
    }
}
