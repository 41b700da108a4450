package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: the consumer commits the effect, then the marker in a separate transaction; a crash between duplicates the effect. */
@Shipped
public final class EffectBeforeMarker extends BrokenVariant {
    public EffectBeforeMarker() {
        super("effect-before-marker", "the consumer commits the effect, then the marker in a separate transaction; a crash between duplicates the effect", Invariant.MARKER_IFF_EFFECT);
    }

    @Override
    public ConsumerShape consumerShape() {
        return ConsumerShape.EFFECT_THEN_MARKER;
    }
}
