package dev.relaycheck.model.variants;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Shipped;

import java.util.OptionalInt;

/**
 * Catalogue: markers are kept for one lease, sized for "a redelivery comes when the
 * lease expires", but a redelivery can come later: the lease expires, another poller re-claims after its own
 * poll delay, or a stalled poller wakes up and delivers what it claimed long ago. NServiceBus's outbox
 * deduplication data and Eventuate's received_messages are purged after a configured time to live; set shorter
 * than the broker's or relay's redelivery window, the redelivery outlives the marker. {@code relaycheck
 * config} computes that window for real settings.
 */
@Shipped
public final class RetentionShorterThanRedelivery extends BrokenVariant {
    public RetentionShorterThanRedelivery() {
        super("retention-shorter-than-redelivery", "dedup markers are purged after one lease, but a redelivery can come "
                + "later (a re-claim after expiry, a stalled poller waking up), so it finds no marker and applies the effect "
                + "again (an inbox time to live shorter than the redelivery window)", Invariant.EFFECT_AT_MOST_ONCE);
    }

    @Override
    public OptionalInt markerRetention(int leaseTicks) {
        return OptionalInt.of(leaseTicks);
    }
}
