package dev.relaycheck.jdbc.relay;

/**
 * What relaycheck's own side of the world does around the relay under test: the poller's order of work, the
 * consumer and the producer. A relay under test runs with {@link #CORRECT}; the catalogue's mistakes that
 * live outside the relay's SQL (a consumer without dedup, a producer committing twice) change one choice.
 *
 * @param ackFirst    the poller acknowledges before it delivers
 * @param consumer    how the consumer commits the marker and the stock movement
 * @param markerKey   what the consumer's applied_event marker is keyed by
 * @param producerInOneTransaction whether the business write and the outbox insert share one transaction
 * @param readsSettleResult whether the poller reads the row count of its ack or release; one that does not
 *                          believes it settled the row and runs its cleanup, unlocking the row by id
 * @param retention         how long the consumer's inbox cleanup keeps a dedup marker
 */
public record SqlShape(boolean ackFirst, Consumer consumer, MarkerKey markerKey, boolean producerInOneTransaction,
                       boolean readsSettleResult, Retention retention) {

    public static final SqlShape CORRECT = new SqlShape(false, Consumer.ONE_TRANSACTION, MarkerKey.EVENT_ID, true, true,
            Retention.FOREVER);

    public SqlShape(boolean ackFirst, Consumer consumer, MarkerKey markerKey, boolean producerInOneTransaction) {
        this(ackFirst, consumer, markerKey, producerInOneTransaction, true, Retention.FOREVER);
    }

    /**
     * The consumer's inbox cleanup: a job that deletes dedup markers older than the retention ({@code DELETE FROM
     * applied_event WHERE written_at <= :now - :retention}), running whenever it likes (relaycheck runs it after
     * every step).
     */
    public enum Retention {
        /** No cleanup: markers are kept for ever (the reference consumer). */
        FOREVER,
        /** Markers deleted as soon as the event is handled (zero retention). */
        AT_ACK,
        /** Markers kept for one lease, shorter than a redelivery can come. */
        ONE_LEASE;

        /** The retention in ticks for a scenario with leases of {@code leaseTicks}; empty: for ever. */
        public java.util.OptionalInt ticks(int leaseTicks) {
            return switch (this) {
                case FOREVER -> java.util.OptionalInt.empty();
                case AT_ACK -> java.util.OptionalInt.of(0);
                case ONE_LEASE -> java.util.OptionalInt.of(leaseTicks);
            };
        }
    }

    /** The consumer's transactions. */
    public enum Consumer {
        /** INSERT marker (unique key) + stock UPDATE + movement INSERT, one transaction. */
        ONE_TRANSACTION,
        /** Marker committed alone, then the effect in a second transaction. */
        MARKER_THEN_EFFECT,
        /** Effect committed alone, then the marker in a second transaction. */
        EFFECT_THEN_MARKER,
        /** Upsert the marker (never rejects) and apply the effect: the marker is written but never consulted. */
        NO_DEDUP
    }

    /** The applied_event key. */
    public enum MarkerKey {
        EVENT_ID,
        /** The payload text: two different events with equal payloads collide. */
        PAYLOAD,
        /** A message id minted per delivery attempt: a redelivery looks new. */
        PER_ATTEMPT
    }

    SqlShape withAckFirst(boolean v) {
        return new SqlShape(v, consumer, markerKey, producerInOneTransaction, readsSettleResult, retention);
    }

    SqlShape withConsumer(Consumer v) {
        return new SqlShape(ackFirst, v, markerKey, producerInOneTransaction, readsSettleResult, retention);
    }

    SqlShape withMarkerKey(MarkerKey v) {
        return new SqlShape(ackFirst, consumer, v, producerInOneTransaction, readsSettleResult, retention);
    }

    SqlShape withProducerInOneTransaction(boolean v) {
        return new SqlShape(ackFirst, consumer, markerKey, v, readsSettleResult, retention);
    }

    SqlShape withRetention(Retention v) {
        return new SqlShape(ackFirst, consumer, markerKey, producerInOneTransaction, readsSettleResult, v);
    }

    SqlShape withReadsSettleResult(boolean v) {
        return new SqlShape(ackFirst, consumer, markerKey, producerInOneTransaction, v, retention);
    }
}
