package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: the consumer never looks up the applied_event marker, so a redelivery applies the effect again. */
@Shipped
public final class NoDedupMarker extends BrokenVariant {
    public NoDedupMarker() {
        super("no-dedup-marker", "the consumer never looks up the applied_event marker, so a redelivery applies the effect again", Invariant.EFFECT_AT_MOST_ONCE);
    }

    @Override
    public boolean consumerChecksMarker() {
        return false;
    }
}
