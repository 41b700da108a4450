package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/**
 * Catalogue: the heartbeat renews by owner name, not by token. Owner names are node names (a host name, a pod
 * name), shared by every worker thread of a node and by containers started with one host name, so the model's
 * pollers count as one owner: a stalled worker's renewal matches the lease another worker took over.
 */
@Shipped
public final class RenewalByOwner extends BrokenVariant {
    public RenewalByOwner() {
        super("renewal-by-owner", "the heartbeat renews by owner name only (WHERE id = ? AND lease_owner = :node AND "
                + "lease_expiry > :now, no token): owner names are host names shared by a node's workers (lock "
                + "libraries keyed by host name, e.g. ShedLock's locked_by), so a stalled worker renews the lease another "
                + "worker took over and both believe they hold the row", Invariant.SINGLE_LIVE_LEASE);
    }

    @Override
    public boolean acceptsRenewal(OutboxRow row, long token, String poller, int now) {
        return row.isPending() && row.hasLease() && !row.lease().expiredAt(now); // the owner is the shared node name
    }

    /** Only a scenario with lease renewal asks the decision this variant gets wrong. */
    @Override
    public boolean exercisedBy(Scenario scenario) {
        return scenario.maxRenewals() > 0;
    }
}
