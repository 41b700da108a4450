package dev.relaycheck.jdbc;

/**
 * The SQL a relay runs, as a handful of choices. The correct relay is {@link #CORRECT}; every broken SQL
 * variant changes exactly one choice, the way one realistic mistake changes one statement.
 *
 * @param leaseCheck  what the claim's WHERE clause says about an existing lease
 * @param headRule    whether the claim skips rows with an earlier PENDING row of the same aggregate
 * @param claimShape  one transaction that selects and leases, or a read now and a blind write later
 * @param token       a fresh fencing token on every claim, or the row's old one kept on a re-claim
 * @param ackFenced   {@code AND lease_token = ?} in the acknowledgement's WHERE clause
 * @param releaseFenced {@code AND lease_token = ?} in the release's WHERE clause
 * @param ackFirst    the poller acknowledges before it delivers
 * @param consumer    how the consumer commits the marker and the stock movement
 * @param markerKey   what the consumer's applied_event marker is keyed by
 * @param producer    whether the business write and the outbox insert share one transaction
 */
public record SqlShape(LeaseCheck leaseCheck, boolean headRule, ClaimShape claimShape, Token token,
                       boolean ackFenced, boolean releaseFenced, boolean ackFirst, Consumer consumer,
                       MarkerKey markerKey, boolean producerInOneTransaction) {

    public static final SqlShape CORRECT = new SqlShape(LeaseCheck.EXPIRY, true, ClaimShape.ATOMIC, Token.FRESH,
            true, true, false, Consumer.ONE_TRANSACTION, MarkerKey.EVENT_ID, true);

    /** The lease condition of a claim. */
    public enum LeaseCheck {
        /** {@code lease_expiry IS NULL OR lease_expiry <= :now}: an expired lease may be taken over. */
        EXPIRY,
        /** No lease condition at all: a live lease is overwritten. */
        IGNORED,
        /** {@code lease_token IS NULL} and leases written without an expiry: nobody ever takes over. */
        OWNER_ONLY_NO_EXPIRY
    }

    /** How the claim reads and writes. */
    public enum ClaimShape {
        /** Select (SKIP LOCKED) and lease with a conditional UPDATE in one transaction. */
        ATOMIC,
        /** A plain SELECT of claimable rows, then later an UPDATE by id without re-checking. */
        CHECK_THEN_ACT
    }

    /** The token a claim writes. */
    public enum Token {
        FRESH,
        /** {@code lease_token = COALESCE(lease_token, :fresh)}: a re-claim keeps the old owner's token. */
        KEEP_ON_RECLAIM
    }

    /** The consumer's transactions. */
    public enum Consumer {
        /** INSERT marker (unique key) + stock UPDATE + movement INSERT, one transaction. */
        ONE_TRANSACTION,
        /** Marker committed alone, then the effect in a second transaction. */
        MARKER_THEN_EFFECT,
        /** Effect committed alone, then the marker in a second transaction. */
        EFFECT_THEN_MARKER,
        /** MERGE the marker (never rejects) and apply the effect: the marker is written but never consulted. */
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

    SqlShape withLeaseCheck(LeaseCheck v) {
        return new SqlShape(v, headRule, claimShape, token, ackFenced, releaseFenced, ackFirst, consumer, markerKey, producerInOneTransaction);
    }

    SqlShape withHeadRule(boolean v) {
        return new SqlShape(leaseCheck, v, claimShape, token, ackFenced, releaseFenced, ackFirst, consumer, markerKey, producerInOneTransaction);
    }

    SqlShape withClaimShape(ClaimShape v) {
        return new SqlShape(leaseCheck, headRule, v, token, ackFenced, releaseFenced, ackFirst, consumer, markerKey, producerInOneTransaction);
    }

    SqlShape withToken(Token v) {
        return new SqlShape(leaseCheck, headRule, claimShape, v, ackFenced, releaseFenced, ackFirst, consumer, markerKey, producerInOneTransaction);
    }

    SqlShape withAckFenced(boolean v) {
        return new SqlShape(leaseCheck, headRule, claimShape, token, v, releaseFenced, ackFirst, consumer, markerKey, producerInOneTransaction);
    }

    SqlShape withReleaseFenced(boolean v) {
        return new SqlShape(leaseCheck, headRule, claimShape, token, ackFenced, v, ackFirst, consumer, markerKey, producerInOneTransaction);
    }

    SqlShape withAckFirst(boolean v) {
        return new SqlShape(leaseCheck, headRule, claimShape, token, ackFenced, releaseFenced, v, consumer, markerKey, producerInOneTransaction);
    }

    SqlShape withConsumer(Consumer v) {
        return new SqlShape(leaseCheck, headRule, claimShape, token, ackFenced, releaseFenced, ackFirst, v, markerKey, producerInOneTransaction);
    }

    SqlShape withMarkerKey(MarkerKey v) {
        return new SqlShape(leaseCheck, headRule, claimShape, token, ackFenced, releaseFenced, ackFirst, consumer, v, producerInOneTransaction);
    }

    SqlShape withProducerInOneTransaction(boolean v) {
        return new SqlShape(leaseCheck, headRule, claimShape, token, ackFenced, releaseFenced, ackFirst, consumer, markerKey, v);
    }
}
