package dev.relaycheck.model;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The lease and consumer logic under test: every decision a relay makes, as pure functions. The model
 * executes the transactions; the logic decides what they do. {@link CorrectRelayLogic} is the reference;
 * every variant in the catalogue (docs/catalogue.md) changes one decision; a user checks their own relay by
 * implementing this interface (usually by extending {@link CorrectRelayLogic}) and pointing relaycheck at
 * the class.
 *
 * <p>Implementations must be deterministic and side-effect free: the same arguments, the same answer. The
 * checker holds a user's logic to that (a second, different answer to the same question is reported as
 * NON-DETERMINISM, an exception as LOGIC-ERROR: see {@link CheckedLogic}).
 *
 * <p><b>Context.</b> The decisions a real relay makes knowing who acts and when come in two forms: the
 * original one, and an overload that also gets the acting poller (and, for ack and release, the clock). The
 * model always asks the overload; its default asks the original, so a logic written against the original
 * keeps working unchanged. A logic that needs the context overrides the overload instead; the originals then
 * need no body (their defaults refuse with a message naming the overload, which the checker reports as a
 * LOGIC-ERROR if anything ever asks them).
 */
public interface RelayLogic {

    /** Stable id, used on the command line and in replay records. */
    String id();

    /** One line: what this logic does (for a broken variant: the mistake). */
    String description();

    /** For a deliberately broken variant, the invariant it is expected to break; empty for a correct logic. */
    default Optional<Invariant> expectedViolation() {
        return Optional.empty();
    }

    // ---------------------------------------------------------------- producer

    /** How the business write and the outbox insert are committed. */
    default ProducerShape producerShape() {
        return ProducerShape.ONE_TRANSACTION;
    }

    // ---------------------------------------------------------------- lease

    /**
     * May a claim at {@code now} take {@code row}? {@code outbox} is every row, in sequence order, so the
     * head-of-aggregate rule can look at earlier rows.
     */
    default boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
        throw notImplemented("isClaimable(row, outbox, now)", "isClaimable(row, outbox, now, poller)");
    }

    /** {@link #isClaimable(OutboxRow, List, int)}, knowing which poller's claim asks. */
    default boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller) {
        return isClaimable(row, outbox, now);
    }

    /**
     * {@link #isClaimable(OutboxRow, List, int, String)}, knowing also the time on the claiming poller's own clock
     * ({@code pollerClock}), which is off from the database's ({@code now}) in a scenario with clock skew. A lease
     * judged on the poller's clock is the bug of {@code app-clock-expiry}; the default judges on the database's.
     */
    default boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
        return isClaimable(row, outbox, now, poller);
    }

    /** Whether the claim reads and writes in one atomic statement, or checks first and writes later. */
    default ClaimShape claimShape() {
        return ClaimShape.ATOMIC;
    }

    /** The fencing token a claim of {@code row} writes, given the greatest token issued so far. */
    default long issueToken(OutboxRow row, long lastIssued) {
        throw notImplemented("issueToken(row, lastIssued)", "issueToken(row, lastIssued, poller)");
    }

    /** {@link #issueToken(OutboxRow, long)}, knowing which poller claims. */
    default long issueToken(OutboxRow row, long lastIssued, String poller) {
        return issueToken(row, lastIssued);
    }

    /** The expiry instant of a lease taken at {@code now}. */
    int leaseExpiry(int now, int leaseTicks);

    /**
     * {@link #leaseExpiry(int, int)}, knowing the claiming (or renewing) poller's own clock; the default computes
     * the expiry on the database's clock, as {@code lease_expiry = :now + :lease} with the database's time does.
     */
    default int leaseExpiry(int now, int leaseTicks, int pollerClock) {
        return leaseExpiry(now, leaseTicks);
    }

    /**
     * Does a lease renewal (a heartbeat while the poller works) by {@code poller} presenting {@code token} at
     * {@code now} match this row? The default is the fenced one: {@code UPDATE outbox SET lease_expiry = :expiry
     * WHERE id = :event AND status = 'PENDING' AND lease_token = :token AND lease_expiry > :now}. A renewal that
     * matches extends the row's lease to {@link #leaseExpiry(int, int, int)}; one that does not tells the poller
     * it lost the lease, and it gives up its batch.
     */
    default boolean acceptsRenewal(OutboxRow row, long token, String poller, int now) {
        return row.isPending() && row.hasLease() && row.lease().token() == token && !row.lease().expiredAt(now);
    }

    /**
     * Which rows a claim may discover: every committed row ({@link CursorRule#NONE}, a claim by status), or only
     * rows above a cursor the relay keeps.
     */
    default CursorRule cursorRule() {
        return CursorRule.NONE;
    }

    /** Does the fenced ack {@code UPDATE ... WHERE} match this row for this token? */
    default boolean acceptsAck(OutboxRow row, long token) {
        throw notImplemented("acceptsAck(row, token)", "acceptsAck(row, token, poller, now)");
    }

    /**
     * {@link #acceptsAck(OutboxRow, long)}, knowing which poller acks and when (for an owner check, or a
     * time-fenced ack that also refuses once the lease expired).
     */
    default boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
        return acceptsAck(row, token);
    }

    /** Does a release (after a failed delivery) match this row for this token? */
    default boolean acceptsRelease(OutboxRow row, long token) {
        throw notImplemented("acceptsRelease(row, token)", "acceptsRelease(row, token, poller, now)");
    }

    /** {@link #acceptsRelease(OutboxRow, long)}, knowing which poller releases and when. */
    default boolean acceptsRelease(OutboxRow row, long token, String poller, int now) {
        return acceptsRelease(row, token);
    }

    /** Why a decision with no body was asked: the logic implements neither of its two forms. */
    private UnsupportedOperationException notImplemented(String original, String overload) {
        return new UnsupportedOperationException(getClass().getName() + " implements neither " + original + " nor "
                + overload + "; implement one of them");
    }

    /**
     * Where a claim's fencing token comes from. The default is one global counter: every claim issues a token
     * above every token issued before. {@link TokenPolicy#PER_ROW_VERSION} is a relay that fences by a version
     * column of the row instead (optimistic locking): every fenced write of a row (claim, release) writes its
     * version + 1, a claim's token is that new version, and an ack or release matches only the row's current
     * one. {@link #issueToken(OutboxRow, long, String)} is then given the row's version as {@code lastIssued}.
     */
    default TokenPolicy tokenPolicy() {
        return TokenPolicy.GLOBAL_COUNTER;
    }

    /**
     * True for a relay whose delivery and acknowledgement are one transaction (the consumer's effect and the
     * fenced ack/delete commit together): a Deliver step then applies the effect and acknowledges, or, when
     * {@link #acceptsAck} refuses the token (the row moved on), does neither and is STALE. Only with the
     * one-transaction consumer and delivery before the ack; otherwise ignored.
     */
    default boolean deliversAndAcksTogether() {
        return false;
    }

    /** True if the poller acknowledges before it delivers (a bug: the row is DELIVERED before the effect). */
    default boolean acksBeforeDelivering() {
        return false;
    }

    // ---------------------------------------------------------------- consumer

    /** The key of the applied_event marker for a delivery of {@code event} made under {@code deliveryToken}. */
    String dedupKey(Event event, long deliveryToken);

    /** Whether the consumer looks the marker up before applying (false: no dedup at all). */
    default boolean consumerChecksMarker() {
        return true;
    }

    /** How the marker insert and the business effect are committed. */
    default ConsumerShape consumerShape() {
        return ConsumerShape.ONE_TRANSACTION;
    }

    // ---------------- retention, ack scope, result

    /**
     * How long the consumer keeps a dedup marker, in ticks, before its inbox cleanup may purge it; empty: for
     * ever (every shipped logic but the retention variants). A marker purged while a redelivery of its event
     * can still come lets that redelivery apply the effect again: the retention must outlive every redelivery
     * ({@code relaycheck config} works out that window from a relay's settings).
     */
    default OptionalInt markerRetention(int leaseTicks) {
        return OptionalInt.empty();
    }

    /**
     * The rows a successful ack of {@code acked} (by {@code poller} presenting {@code token}) marks DELIVERED,
     * {@code acked} itself included. {@code batch} is what the poller holds, head first (the
     * acked row), so a batch ack can name the rest of it; {@code outbox} is every row, for an ack by owner.
     * Rows named that are not PENDING are left as they are. Default: the one row, by id and token.
     */
    default List<String> rowsAckTouches(OutboxRow acked, long token, String poller, List<Held> batch,
                                        List<OutboxRow> outbox) {
        return List.of(acked.id());
    }

    /**
     * Whether the poller reads what its ack or release did (the updated row count) before acting on it. One
     * that does not believes every ack and release applied.
     */
    default boolean readsSettleResult() {
        return true;
    }

    /**
     * Whether, after an ack or release it believes applied, the poller also unlocks the row by id (the
     * complete-then-unlock cleanup of job queues). Harmless after one that applied (the row has no lease
     * left); on a row another poller took over it wipes that poller's live lease.
     */
    default boolean unlocksAfterSettling() {
        return false;
    }

    // ---------------------------------------------------------------- outbox cleanup

    /**
     * Does the outbox cleanup job, running at {@code now}, delete {@code row}? Teams purge or archive handled rows on
     * a schedule ({@code DELETE FROM outbox WHERE status = 'DELIVERED'}); the job runs at any point between the
     * relay's transactions, in scenarios with {@code cleanup true}. The default takes only DELIVERED rows: a purge
     * that also takes a row still PENDING (leased to a poller at work, or waiting for a retry) deletes an event the
     * relay can then never deliver, unless the poller holding it still does.
     */
    default boolean cleanupTakes(OutboxRow row, int now) {
        return row.status() == RowStatus.DELIVERED;
    }

    /** Where fencing tokens come from (see {@link #tokenPolicy()}). */
    enum TokenPolicy {
        /** One counter for the whole outbox: every claim issues a token above every earlier one. */
        GLOBAL_COUNTER,
        /** Each row's own version: every fenced write of the row increments it; a claim's token is the new version. */
        PER_ROW_VERSION
    }

    /** Producer transaction shapes. */
    enum ProducerShape {
        /** Business write and outbox insert in one transaction (correct). */
        ONE_TRANSACTION,
        /** Business write commits, then the outbox insert runs in its own transaction. */
        BUSINESS_THEN_OUTBOX
    }

    /** Claim shapes. */
    enum ClaimShape {
        /** Select and lease in one atomic statement (SKIP LOCKED or a conditional update). */
        ATOMIC,
        /** Read the claimable rows, then write leases on them later without re-checking. */
        CHECK_THEN_ACT
    }

    /** How a relay finds rows to claim. */
    enum CursorRule {
        /** Every committed PENDING row is a candidate (a claim by status: correct). */
        NONE,
        /**
         * Rows with a sequence above the highest the relay has read ("rows after the last sequence I saw"): a row
         * whose sequence was allocated before a read row's but that committed after the read is never read.
         */
        AFTER_LAST_SEEN,
        /**
         * Rows above the cursor and below the lowest sequence still in flight (a cursor that waits for open
         * producer transactions, as a relay reading only below the oldest open transaction's sequence does): correct.
         */
        WAITS_FOR_IN_FLIGHT
    }

    /** Consumer transaction shapes. */
    enum ConsumerShape {
        /** Marker and effect in one transaction (correct). */
        ONE_TRANSACTION,
        /** Marker committed first, effect in a second transaction. */
        MARKER_THEN_EFFECT,
        /** Effect committed first, marker in a second transaction. */
        EFFECT_THEN_MARKER
    }
}
