package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: the poller marks the row DELIVERED before the consumer has committed the effect. */
@Shipped
public final class AckBeforeDeliver extends BrokenVariant {
    public AckBeforeDeliver() {
        super("ack-before-deliver", "the poller marks the row DELIVERED before the consumer has committed the effect", Invariant.NO_LOST_EVENT);
    }

    @Override
    public boolean acksBeforeDelivering() {
        return true;
    }
}
