package dev.relaycheck.jdbc.adapter;

/**
 * What a claim is asked for.
 *
 * @param poller     the poller claiming (the lease owner)
 * @param now        the logical clock, in ticks
 * @param batch      rows to claim at most
 * @param leaseTicks lease length: a lease taken now expires at {@code now + leaseTicks}
 */
public record ClaimRequest(String poller, int now, int batch, int leaseTicks) {
    public int expiry() {
        return now + leaseTicks;
    }
}
