package dev.relaycheck.jdbc.relay;

import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import dev.relaycheck.jdbc.relay.SqlShape.Consumer;
import dev.relaycheck.jdbc.relay.SqlShape.MarkerKey;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The reference SQL relay and the SQL versions of the catalogue's broken variants, each named by the
 * catalogue id it stands for (so reports line up with the explorer's). A mistake in the relay's SQL is a
 * small edit of the reference relay file ({@code relay-reference.sql}); a mistake outside it (the consumer,
 * the producer, the poller's order of work) is a change of relaycheck's side ({@link SqlShape}). Used as
 * negative controls: every broken one must make the checks fail, on every database.
 */
public enum SqlVariant {
    CORRECT("correct", "the reference relay file as shipped (relaycheck sql template)", List.of(), SqlShape.CORRECT),
    ACK_IGNORES_TOKEN("ack-ignores-token", "relay file, ack: UPDATE outbox ... WHERE event_id = :event AND status = 'PENDING' (no lease_token)",
            List.of(Edit.remove("ack", Clause.TOKEN_FENCE)), SqlShape.CORRECT),
    RECLAIM_KEEPS_TOKEN("reclaim-keeps-token", "relay file, claim-lease: SET lease_token = COALESCE(o.lease_token, :token) keeps an expired owner's token",
            List.of(new Edit("claim-lease", "lease_token = :token", "lease_token = COALESCE(o.lease_token, :token)")), SqlShape.CORRECT),
    CLAIM_IGNORES_LEASE("claim-ignores-lease", "relay file, claim-select and claim-lease: no lease_expiry condition",
            List.of(Edit.remove("claim-select", Clause.LEASE_FREE), Edit.remove("claim-lease", Clause.LEASE_FREE)), SqlShape.CORRECT),
    CHECK_THEN_ACT_CLAIM("check-then-act-claim", "relay file: option claim-in-two-transactions; claim-select without FOR UPDATE "
            + "SKIP LOCKED, claim-lease UPDATE ... WHERE event_id = :event without re-checking",
            List.of(Edit.TWO_TRANSACTION_CLAIM, Edit.remove("claim-select", Clause.LOCK),
                    Edit.remove("claim-lease", Clause.PENDING + Clause.LEASE_FREE + Clause.HEAD)), SqlShape.CORRECT),
    LEASE_NEVER_EXPIRES("lease-never-expires", "relay file, claim: WHERE lease_token IS NULL and lease_expiry = NULL: a crashed owner's row is stuck",
            List.of(new Edit("claim-select", Clause.LEASE_FREE, "\n  AND o.lease_token IS NULL"),
                    new Edit("claim-lease", Clause.LEASE_FREE, "\n  AND o.lease_token IS NULL"),
                    new Edit("claim-lease", "lease_expiry = :expiry", "lease_expiry = NULL")), SqlShape.CORRECT),
    ACK_BEFORE_DELIVER("ack-before-deliver", "poller: runs the fenced ack before the consumer transaction",
            List.of(), SqlShape.CORRECT.withAckFirst(true)),
    NO_DEDUP_MARKER("no-dedup-marker", "consumer: upserts applied_event (never rejects) + stock UPDATE: the marker is never consulted",
            List.of(), SqlShape.CORRECT.withConsumer(Consumer.NO_DEDUP)),
    MARKER_BEFORE_EFFECT("marker-before-effect", "consumer: INSERT marker; COMMIT; then stock UPDATE in its own transaction",
            List.of(), SqlShape.CORRECT.withConsumer(Consumer.MARKER_THEN_EFFECT)),
    EFFECT_BEFORE_MARKER("effect-before-marker", "consumer: stock UPDATE; COMMIT; then INSERT marker in its own transaction",
            List.of(), SqlShape.CORRECT.withConsumer(Consumer.EFFECT_THEN_MARKER)),
    DEDUP_BY_PAYLOAD("dedup-by-payload", "consumer: applied_event keyed by the payload text instead of the event id",
            List.of(), SqlShape.CORRECT.withMarkerKey(MarkerKey.PAYLOAD)),
    NEW_ID_ON_RETRY("new-id-on-retry", "relay: sends a message id minted per delivery attempt, the consumer keys the marker by it",
            List.of(), SqlShape.CORRECT.withMarkerKey(MarkerKey.PER_ATTEMPT)),
    NO_HEAD_OF_AGGREGATE("no-head-of-aggregate", "relay file, claim-select and claim-lease: no NOT EXISTS (earlier PENDING row of the same aggregate)",
            List.of(Edit.remove("claim-select", Clause.HEAD), Edit.remove("claim-lease", Clause.HEAD)), SqlShape.CORRECT),
    OUTBOX_OUTSIDE_TRANSACTION("outbox-outside-transaction", "producer: INSERT business row; COMMIT; then the relay's produce; COMMIT",
            List.of(), SqlShape.CORRECT.withProducerInOneTransaction(false)),
    RELEASE_IGNORES_TOKEN("release-ignores-token", "relay file, release: UPDATE outbox SET lease_* = NULL WHERE event_id = :event AND status = 'PENDING' (no lease_token)",
            List.of(Edit.remove("release", Clause.TOKEN_FENCE)), SqlShape.CORRECT),
    // lease, settle and timing hazards
    CURSOR_BY_SEQUENCE("cursor-by-sequence", "relay file, claim-select: AND o.seq > :cursor (rows after the highest sequence the relay "
            + "claimed): a producer transaction that took seq 1 and commits after seq 2 was claimed is never read (watermark skip)",
            List.of(new Edit("claim-select", Clause.HEAD, Clause.HEAD + Clause.AFTER_CURSOR)), SqlShape.CORRECT),
    RENEWAL_BY_OWNER("renewal-by-owner", "relay file, renew: WHERE event_id = :event AND status = 'PENDING' AND lease_expiry > :now, "
            + "no lease_token: renewal by owner name, and the owner is the node name all of a node's pollers share (ShedLock's "
            + "locked_by), so a stalled poller renews the lease another poller took over",
            List.of(Edit.remove("renew", Clause.TOKEN_FENCE)), SqlShape.CORRECT),
    RENEWAL_IGNORES_EXPIRY("renewal-ignores-expiry", "relay file, renew: WHERE event_id = :event AND status = 'PENDING' AND "
            + "lease_token IS NOT NULL (by the node's owner name, no lease_expiry > :now): revives a lapsed or taken-over lease",
            List.of(new Edit("renew", Clause.TOKEN_FENCE, " AND lease_token IS NOT NULL"), Edit.remove("renew", Clause.LIVE)),
            SqlShape.CORRECT),
    BATCH_ACK_WHOLE_BATCH("batch-ack-whole-batch", "relay file, ack: UPDATE outbox SET status = 'DELIVERED' ... WHERE lease_owner = :poller "
            + "AND status = 'PENDING' (the batch's rows, by owner, not the row delivered): rows of the batch never delivered "
            + "are DELIVERED with no effect",
            List.of(new Edit("ack", "event_id = :event AND lease_token = :token", "lease_owner = :poller")), SqlShape.CORRECT),
    IGNORES_SETTLE_RESULT("ignores-settle-result", "poller: ignores the row count of its ack or release, believes it settled the row "
            + "and unlocks it by id (lease_* = NULL WHERE event_id = :event), wiping the live lease of the poller that took it over",
            List.of(), SqlShape.CORRECT.withReadsSettleResult(false)),
    PURGE_AT_ACK("purge-at-ack", "consumer: the inbox cleanup deletes a dedup marker as soon as the event is handled "
            + "(DELETE FROM applied_event WHERE written_at <= :now): the redelivery after a lost ack applies the effect again",
            List.of(), SqlShape.CORRECT.withRetention(SqlShape.Retention.AT_ACK)),
    RETENTION_SHORTER_THAN_REDELIVERY("retention-shorter-than-redelivery", "consumer: the inbox cleanup keeps markers for one lease "
            + "(DELETE FROM applied_event WHERE written_at <= :now - :lease): a redelivery after a re-claim or a stalled poller "
            + "comes later and applies the effect again",
            List.of(), SqlShape.CORRECT.withRetention(SqlShape.Retention.ONE_LEASE)),
    APP_CLOCK_EXPIRY("app-clock-expiry", "relay file, claim-select and claim-lease: o.lease_expiry <= :app_now, and claim-lease "
            + "SET lease_expiry = :app_now + :lease_ticks: the lease is written and judged on the poller's own clock, so a poller "
            + "whose clock runs ahead takes a lease still live on the database's clock",
            List.of(new Edit("claim-select", Clause.EXPIRED, Clause.EXPIRED_ON_APP_CLOCK),
                    new Edit("claim-lease", Clause.EXPIRED, Clause.EXPIRED_ON_APP_CLOCK),
                    new Edit("claim-lease", "lease_expiry = :expiry", "lease_expiry = :app_now + :lease_ticks")), SqlShape.CORRECT),
    CLEANUP_DELETES_IN_FLIGHT("cleanup-deletes-in-flight", "relay file, cleanup: DELETE FROM outbox WHERE status = 'DELIVERED' "
            + "OR lease_token IS NOT NULL (Spring Modulith 2.0.5's OR STATUS = 'PROCESSING'): a row a poller is working on is "
            + "deleted, and when that poller crashes or its delivery fails nothing is left to retry",
            List.of(new Edit("cleanup", "WHERE status = 'DELIVERED'", "WHERE status = 'DELIVERED' OR lease_token IS NOT NULL")),
            SqlShape.CORRECT);

    /** Clauses of the reference relay file that the broken variants take out or change. */
    static final class Clause {
        static final String TOKEN_FENCE = " AND lease_token = :token";
        static final String LEASE_FREE = "\n  AND (o.lease_token IS NULL OR o.lease_expiry <= :now)";
        static final String HEAD = "\n  AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.aggregate_id = o.aggregate_id"
                + " AND e.status = 'PENDING' AND e.seq < o.seq)";
        static final String PENDING = "\n  AND o.status = 'PENDING'";
        static final String LOCK = "\nFOR UPDATE SKIP LOCKED";
        static final String AFTER_CURSOR = "\n  AND o.seq > :cursor";
        static final String LIVE = " AND lease_expiry > :now";
        static final String EXPIRED = "o.lease_expiry <= :now";
        static final String EXPIRED_ON_APP_CLOCK = "o.lease_expiry <= :app_now";

        private Clause() {
        }
    }

    /** One change to the reference relay file: {@code from} replaced by {@code to} in statement {@code statement}. */
    public record Edit(String statement, String from, String to) {
        /** Not a text edit: the option that splits the claim into a read and a later write transaction. */
        static final Edit TWO_TRANSACTION_CLAIM = new Edit("", RelaySqlFile.TWO_TRANSACTION_CLAIM, "");

        static Edit remove(String statement, String clause) {
            return new Edit(statement, clause, "");
        }

        RelaySqlFile applyTo(RelaySqlFile f) {
            return statement.isEmpty() ? f.withOption(from) : f.edit(statement, from, to);
        }
    }

    private final String id;
    private final String statement;
    private final List<Edit> edits;
    private final SqlShape shape;

    SqlVariant(String id, String statement, List<Edit> edits, SqlShape shape) {
        this.id = id;
        this.statement = statement;
        this.edits = edits;
        this.shape = shape;
    }

    /**
     * The reference scenario shaped for this mistake, which the conformance check tries first when the variant
     * runs as a negative control (null: none in particular). A stale release needs a failed delivery after the
     * lease expired and another poller re-claimed the row: random walks meet it rarely elsewhere. A cursor relay
     * loses a row only where producer transactions commit out of sequence order.
     */
    public String exposingScenario() {
        return switch (this) {
            case RELEASE_IGNORES_TOKEN -> "stale-ack-after-expiry";
            case CURSOR_BY_SEQUENCE -> "commit-visibility"; // only overlapping producers commit a row below the cursor
            case RENEWAL_BY_OWNER, RENEWAL_IGNORES_EXPIRY -> "lease-renewal"; // the only scenario that renews
            case BATCH_ACK_WHOLE_BATCH -> "batch-ack"; // a batch of two, acked while its second row is still to deliver
            case IGNORES_SETTLE_RESULT -> "unmatched-settle"; // a stalled poller's ack or release after a takeover
            case PURGE_AT_ACK, RETENTION_SHORTER_THAN_REDELIVERY -> "marker-retention"; // a lost ack, a late redelivery
            case APP_CLOCK_EXPIRY -> "clock-skew"; // pollers whose clocks are off from the database's
            case CLEANUP_DELETES_IN_FLIGHT -> "outbox-cleanup"; // the only scenario whose cleanup job runs
            default -> null;
        };
    }

    /**
     * Seeds of {@link #exposingScenario} a negative control needs at least (0: as many as the other scenarios get). A
     * heartbeat fired after another poller took the lease over is about one walk in seventy of lease-renewal (from base
     * seed 1 the first is walk 51), where the exhaustive model search finds it at once.
     */
    public int exposingSeeds() {
        return this == RENEWAL_BY_OWNER || this == RENEWAL_IGNORES_EXPIRY ? RENEWAL_SEEDS : 0;
    }

    /**
     * The lease, settle and timing mistakes and the outbox cleanup: each shows only in a scenario with its hazard ({@link
     * #exposingScenario}: overlapping producers, renewals, skew, a batch acked mid-way, an unmatched settle, a late
     * redelivery, a cleanup job running), which the first scenarios never exercise; a check that runs only those cannot use them as negative controls.
     */
    public boolean needsItsOwnScenario() {
        return ordinal() >= CURSOR_BY_SEQUENCE.ordinal();
    }

    /** Seeds of lease-renewal for the renewal controls (see {@link #exposingSeeds}). */
    static final int RENEWAL_SEEDS = 64;

    /** The catalogue id this SQL stands for ({@code correct} or a {@code LogicCatalogue} variant id). */
    public String id() {
        return id;
    }

    /** What is wrong, in one line. */
    public String statement() {
        return statement;
    }

    /** relaycheck's side: consumer, producer, poller order. */
    public SqlShape shape() {
        return shape;
    }

    /** The edits of the reference relay file that make this variant (none for a mistake outside the relay's SQL). */
    public List<Edit> edits() {
        return edits;
    }

    /** The relay file this variant runs: the reference with the edits applied, in the claim form given. */
    public RelaySqlFile file(ClaimForm form) {
        RelaySqlFile f = form.apply(RelaySqlFile.reference());
        for (Edit e : edits) {
            f = e.applyTo(f);
        }
        return f;
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
