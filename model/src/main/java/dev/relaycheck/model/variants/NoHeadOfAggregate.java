package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

import java.util.List;

/** Catalogue: claim ignores earlier PENDING rows of the same aggregate, so its events overtake each other. */
@Shipped
public final class NoHeadOfAggregate extends BrokenVariant {
    public NoHeadOfAggregate() {
        super("no-head-of-aggregate", "claim ignores earlier PENDING rows of the same aggregate, so its events overtake each other", Invariant.AGGREGATE_ORDER);
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
        return row.isPending() && row.unleasedAt(now); // no head-of-aggregate rule
    }
}
