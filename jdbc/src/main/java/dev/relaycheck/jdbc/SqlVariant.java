package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.SqlShape.ClaimShape;
import dev.relaycheck.jdbc.SqlShape.Consumer;
import dev.relaycheck.jdbc.SqlShape.LeaseCheck;
import dev.relaycheck.jdbc.SqlShape.MarkerKey;
import dev.relaycheck.jdbc.SqlShape.Token;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The correct SQL relay and the SQL versions of the catalogue's broken variants, each named by the
 * catalogue id it stands for (so reports line up with the explorer's) and described by the statement that
 * is wrong. Used as negative controls: every broken one must make the conformance check fail.
 */
public enum SqlVariant {
    CORRECT("correct", "claim: SELECT ... FOR UPDATE SKIP LOCKED + conditional UPDATE with a fresh token; "
            + "ack/release: WHERE event_id = ? AND lease_token = ? AND status = 'PENDING'; consumer: marker INSERT + "
            + "stock UPDATE in one transaction", SqlShape.CORRECT),
    ACK_IGNORES_TOKEN("ack-ignores-token", "ack: UPDATE outbox ... WHERE event_id = ? AND status = 'PENDING' (no lease_token)",
            SqlShape.CORRECT.withAckFenced(false)),
    RECLAIM_KEEPS_TOKEN("reclaim-keeps-token", "claim: SET lease_token = COALESCE(lease_token, ?) keeps an expired owner's token",
            SqlShape.CORRECT.withToken(Token.KEEP_ON_RECLAIM)),
    CLAIM_IGNORES_LEASE("claim-ignores-lease", "claim: WHERE status = 'PENDING' without the lease_expiry condition",
            SqlShape.CORRECT.withLeaseCheck(LeaseCheck.IGNORED)),
    CHECK_THEN_ACT_CLAIM("check-then-act-claim", "claim: plain SELECT of claimable rows, then UPDATE ... WHERE event_id = ? "
            + "in a later transaction without re-checking (no SKIP LOCKED, no conditional update)",
            SqlShape.CORRECT.withClaimShape(ClaimShape.CHECK_THEN_ACT)),
    LEASE_NEVER_EXPIRES("lease-never-expires", "claim: WHERE lease_token IS NULL, lease_expiry left NULL: a crashed owner's row is stuck",
            SqlShape.CORRECT.withLeaseCheck(LeaseCheck.OWNER_ONLY_NO_EXPIRY)),
    ACK_BEFORE_DELIVER("ack-before-deliver", "poller: runs the fenced ack UPDATE before the consumer transaction",
            SqlShape.CORRECT.withAckFirst(true)),
    NO_DEDUP_MARKER("no-dedup-marker", "consumer: MERGE INTO applied_event (never rejects) + stock UPDATE: the marker is never consulted",
            SqlShape.CORRECT.withConsumer(Consumer.NO_DEDUP)),
    MARKER_BEFORE_EFFECT("marker-before-effect", "consumer: INSERT marker; COMMIT; then stock UPDATE in its own transaction",
            SqlShape.CORRECT.withConsumer(Consumer.MARKER_THEN_EFFECT)),
    EFFECT_BEFORE_MARKER("effect-before-marker", "consumer: stock UPDATE; COMMIT; then INSERT marker in its own transaction",
            SqlShape.CORRECT.withConsumer(Consumer.EFFECT_THEN_MARKER)),
    DEDUP_BY_PAYLOAD("dedup-by-payload", "consumer: applied_event keyed by the payload text instead of the event id",
            SqlShape.CORRECT.withMarkerKey(MarkerKey.PAYLOAD)),
    NEW_ID_ON_RETRY("new-id-on-retry", "relay: sends a message id minted per delivery attempt, the consumer keys the marker by it",
            SqlShape.CORRECT.withMarkerKey(MarkerKey.PER_ATTEMPT)),
    NO_HEAD_OF_AGGREGATE("no-head-of-aggregate", "claim: no NOT EXISTS (earlier PENDING row of the same aggregate) condition",
            SqlShape.CORRECT.withHeadRule(false)),
    OUTBOX_OUTSIDE_TRANSACTION("outbox-outside-transaction", "producer: INSERT business row; COMMIT; then INSERT outbox row; COMMIT",
            SqlShape.CORRECT.withProducerInOneTransaction(false)),
    RELEASE_IGNORES_TOKEN("release-ignores-token", "release: UPDATE outbox SET lease_* = NULL WHERE event_id = ? AND status = 'PENDING' (no lease_token)",
            SqlShape.CORRECT.withReleaseFenced(false));

    private final String id;
    private final String statement;
    private final SqlShape shape;

    SqlVariant(String id, String statement, SqlShape shape) {
        this.id = id;
        this.statement = statement;
        this.shape = shape;
    }

    /** The catalogue id this SQL stands for ({@code correct} or a {@code LogicCatalogue} variant id). */
    public String id() {
        return id;
    }

    /** The SQL that is wrong, in one line. */
    public String statement() {
        return statement;
    }

    public SqlShape shape() {
        return shape;
    }

    public boolean isCorrect() {
        return this == CORRECT;
    }

    public static List<SqlVariant> broken() {
        return Arrays.stream(values()).filter(v -> !v.isCorrect()).toList();
    }

    public static Optional<SqlVariant> byId(String id) {
        return Arrays.stream(values()).filter(v -> v.id.equals(id)).findFirst();
    }
}
