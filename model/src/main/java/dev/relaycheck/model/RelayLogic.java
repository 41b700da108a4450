package dev.relaycheck.model;

import java.util.List;
import java.util.Optional;

/**
 * The lease and consumer logic under test: every decision a relay makes, as pure functions. The model
 * executes the transactions; the logic decides what they do. {@link CorrectRelayLogic} is the reference;
 * every variant in {@link LogicCatalogue} changes one decision; a user checks their own relay by
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
