package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: each delivery attempt sends a fresh message id, so the consumer cannot recognise a retry. */
@Shipped
public final class NewIdOnRetry extends BrokenVariant {
    public NewIdOnRetry() {
        super("new-id-on-retry", "each delivery attempt sends a fresh message id, so the consumer cannot recognise a retry", Invariant.EFFECT_AT_MOST_ONCE);
    }

    @Override
    public String dedupKey(Event event, long deliveryToken) {
        return event.id() + "/attempt-t" + deliveryToken;
    }
}
