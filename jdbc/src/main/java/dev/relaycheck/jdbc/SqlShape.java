package dev.relaycheck.jdbc;

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
 */
public record SqlShape(boolean ackFirst, Consumer consumer, MarkerKey markerKey, boolean producerInOneTransaction,
                       boolean readsSettleResult) {

    public static final SqlShape CORRECT = new SqlShape(false, Consumer.ONE_TRANSACTION, MarkerKey.EVENT_ID, true, true);

    public SqlShape(boolean ackFirst, Consumer consumer, MarkerKey markerKey, boolean producerInOneTransaction) {
        this(ackFirst, consumer, markerKey, producerInOneTransaction, true);
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
        return new SqlShape(v, consumer, markerKey, producerInOneTransaction, readsSettleResult);
    }

    SqlShape withConsumer(Consumer v) {
        return new SqlShape(ackFirst, v, markerKey, producerInOneTransaction, readsSettleResult);
    }

    SqlShape withMarkerKey(MarkerKey v) {
        return new SqlShape(ackFirst, consumer, v, producerInOneTransaction, readsSettleResult);
    }

    SqlShape withProducerInOneTransaction(boolean v) {
        return new SqlShape(ackFirst, consumer, markerKey, v, readsSettleResult);
    }

    SqlShape withReadsSettleResult(boolean v) {
        return new SqlShape(ackFirst, consumer, markerKey, producerInOneTransaction, v);
    }
}
