package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

import java.util.List;

/**
 * Catalogue: lease expiry written and judged on each poller's own clock. Under clock skew a poller whose clock
 * runs ahead finds a lease expired that is live on the database's clock (and on its owner's), and takes it.
 */
@Shipped
public final class AppClockExpiry extends BrokenVariant {
    public AppClockExpiry() {
        super("app-clock-expiry", "lease expiry is written and judged on the poller's own clock (lease_expiry = :appNow + "
                + ":lease, claim WHERE lease_expiry <= :appNow): a node whose clock runs ahead takes a lease still live on "
                + "the database's clock, so two nodes hold it at once (ShedLock's clock-skew caveat, 'nodes minutes apart "
                + "both hold the lock'; its fix usingDbTime() judges on the database's clock)", Invariant.SINGLE_LIVE_LEASE);
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
        return row.isPending() && (row.lease() == null || row.lease().expiry() <= pollerClock) && isHeadOfAggregate(row, outbox);
    }

    @Override
    public int leaseExpiry(int now, int leaseTicks, int pollerClock) {
        return pollerClock + leaseTicks;
    }

    /** Only a scenario with clock skew asks the decision this variant gets wrong. */
    @Override
    public boolean exercisedBy(Scenario scenario) {
        return scenario.maxSkew() > 0;
    }
}
