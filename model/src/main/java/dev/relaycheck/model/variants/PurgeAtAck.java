package dev.relaycheck.model.variants;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Shipped;

import java.util.OptionalInt;

/**
 * Catalogue: the consumer's inbox cleanup keeps no marker once the event is handled
 * (zero retention). The story of ShedLock-, NServiceBus- and Eventuate-style inbox cleanup: the dedup table
 * grows, so a job deletes "processed" entries, here at once; the relay's lost ack then redelivers the event
 * and, with its marker gone, the consumer applies it a second time.
 */
@Shipped
public final class PurgeAtAck extends BrokenVariant {
    public PurgeAtAck() {
        super("purge-at-ack", "the consumer's inbox cleanup purges a dedup marker as soon as the event is handled (zero "
                + "retention), so the redelivery that follows a lost ack finds no marker and applies the effect again "
                + "(NServiceBus/Eventuate-style inbox cleanup run too eagerly)", Invariant.EFFECT_AT_MOST_ONCE);
    }

    @Override
    public OptionalInt markerRetention(int leaseTicks) {
        return OptionalInt.of(0); // DELETE FROM received_messages WHERE id = ? right after processing
    }
}
