package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: the consumer dedups by payload content instead of event id, so a second event with an equal payload is dropped. */
@Shipped
public final class DedupByPayload extends BrokenVariant {
    public DedupByPayload() {
        super("dedup-by-payload", "the consumer dedups by payload content instead of event id, so a second event with an equal payload is dropped", Invariant.NO_LOST_EVENT);
    }

    @Override
    public String dedupKey(Event event, long deliveryToken) {
        return "payload:" + event.payload();
    }
}
