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
 * @param appNow     the claiming poller's own clock: {@code now} (the database's clock) plus the poller's skew, in a
 *                   scenario with clock skew; {@code now} elsewhere. A lease judged on it is the app-clock-expiry bug
 */
public record ClaimRequest(String poller, int now, int batch, int leaseTicks, int cursor, int appNow) {

    /** A claim of a relay that keeps no cursor, by a poller whose clock is the database's. */
    public ClaimRequest(String poller, int now, int batch, int leaseTicks) {
        this(poller, now, batch, leaseTicks, 0, now);
    }

    public int expiry() {
        return now + leaseTicks;
    }
}
