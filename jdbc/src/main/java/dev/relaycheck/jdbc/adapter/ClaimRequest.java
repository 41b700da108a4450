package dev.relaycheck.jdbc.adapter;

/**
 * What a claim is asked for.
 *
 * @param poller     the poller claiming (the lease owner)
 * @param now        the logical clock, in ticks
 * @param batch      rows to claim at most
 * @param leaseTicks lease length: a lease taken now expires at {@code now + leaseTicks}
 * @param cursor     for a relay that reads by cursor ({@link RelayAdapter#readsByCursor}): the highest sequence
 *                   its pollers have claimed so far (0 before the first claim); 0 for every other relay
 */
public record ClaimRequest(String poller, int now, int batch, int leaseTicks, int cursor) {

    /** A claim of a relay that keeps no cursor. */
    public ClaimRequest(String poller, int now, int batch, int leaseTicks) {
        this(poller, now, batch, leaseTicks, 0);
    }

    public int expiry() {
        return now + leaseTicks;
    }
}
