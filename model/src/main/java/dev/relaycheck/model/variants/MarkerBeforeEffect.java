package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: the consumer commits the marker in its own transaction before the effect; a crash between loses the effect. */
@Shipped
public final class MarkerBeforeEffect extends BrokenVariant {
    public MarkerBeforeEffect() {
        super("marker-before-effect", "the consumer commits the marker in its own transaction before the effect; a crash between loses the effect", Invariant.MARKER_IFF_EFFECT);
    }

    @Override
    public ConsumerShape consumerShape() {
        return ConsumerShape.MARKER_THEN_EFFECT;
    }
}
