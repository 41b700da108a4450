package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

import java.util.List;

/** Catalogue: claim takes PENDING rows even when another poller holds an unexpired lease */
@Shipped
public final class ClaimIgnoresLease extends BrokenVariant {
    public ClaimIgnoresLease() {
        super("claim-ignores-lease", "claim takes PENDING rows even when another poller holds an unexpired lease", Invariant.SINGLE_LIVE_LEASE);
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
        return row.isPending() && isHeadOfAggregate(row, outbox); // lease expiry never consulted
    }
}
