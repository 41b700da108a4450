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
 * <p>Implementations must be deterministic and side-effect free: the same arguments, the same answer.
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
    boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now);

    /** Whether the claim reads and writes in one atomic statement, or checks first and writes later. */
    default ClaimShape claimShape() {
        return ClaimShape.ATOMIC;
    }

    /** The fencing token a claim of {@code row} writes, given the greatest token issued so far. */
    long issueToken(OutboxRow row, long lastIssued);

    /** The expiry instant of a lease taken at {@code now}. */
    int leaseExpiry(int now, int leaseTicks);

    /** Does the fenced ack {@code UPDATE ... WHERE} match this row for this token? */
    boolean acceptsAck(OutboxRow row, long token);

    /** Does a release (after a failed delivery) match this row for this token? */
    boolean acceptsRelease(OutboxRow row, long token);

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
