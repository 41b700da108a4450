package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: claim reads the claimable rows, then writes leases in a second statement without re-checking */
@Shipped
public final class CheckThenActClaim extends BrokenVariant {
    public CheckThenActClaim() {
        super("check-then-act-claim", "claim reads the claimable rows, then writes leases in a second statement without re-checking", Invariant.SINGLE_LIVE_LEASE);
    }

    @Override
    public ClaimShape claimShape() {
        return ClaimShape.CHECK_THEN_ACT;
    }
}
