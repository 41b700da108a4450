package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: the business write commits, then the outbox row is inserted in a separate transaction; a crash between loses the event. */
@Shipped
public final class OutboxOutsideTransaction extends BrokenVariant {
    public OutboxOutsideTransaction() {
        super("outbox-outside-transaction", "the business write commits, then the outbox row is inserted in a separate transaction; a crash between loses the event", Invariant.PRODUCE_ATOMIC);
    }

    @Override
    public ProducerShape producerShape() {
        return ProducerShape.BUSINESS_THEN_OUTBOX;
    }
}
