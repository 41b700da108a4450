package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/**
 * Catalogue: the heartbeat renews by owner name without re-checking expiry. Beside what {@link RenewalByOwner}
 * renews, it revives a lease that lapsed (its owner stalled or died), handing it to the renewer while the
 * lapsed owner, should it wake, still believes it holds it. (Fenced by token, a missing expiry re-check alone is
 * harmless: a lapsed lease nobody re-claimed still belongs to the renewer; {@code RenewalTest} shows it.)
 */
@Shipped
public final class RenewalIgnoresExpiry extends BrokenVariant {
    public RenewalIgnoresExpiry() {
        super("renewal-ignores-expiry", "the heartbeat renews by owner name without re-checking expiry (WHERE id = ? AND "
                + "lease_owner = :node, no lease_expiry > :now, no token): it extends a lease that lapsed or was taken "
                + "over, so the renewer and the lease's owner both believe they hold the row", Invariant.SINGLE_LIVE_LEASE);
    }

    @Override
    public boolean acceptsRenewal(OutboxRow row, long token, String poller, int now) {
        return row.isPending() && row.hasLease();
    }

    /** Only a scenario with lease renewal asks the decision this variant gets wrong. */
    @Override
    public boolean exercisedBy(Scenario scenario) {
        return scenario.maxRenewals() > 0;
    }
}
