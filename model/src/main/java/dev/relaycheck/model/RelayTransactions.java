package dev.relaycheck.model;

import dev.relaycheck.model.Outcome.Grant;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The shared-state transactions of a relay as pure functions: claim, the consumer transaction, ack, release,
 * produce. They know nothing of pollers' local memory, so the thread-safe store's sequential specification
 * and the SQL conformance check can use them directly; {@link RelayModel} builds the step semantics on top.
 */
public final class RelayTransactions {
    private RelayTransactions() {
    }

    /**
     * The rows an atomic claim by {@code poller} (or the read half of its check-then-act claim) would take, in
     * sequence order.
     */
    public static List<String> claimableIds(RelayLogic logic, RelayState s, int batch, String poller) {
        List<String> ids = new ArrayList<>();
        for (OutboxRow row : s.rows()) {
            if (ids.size() == batch) {
                break;
            }
            if (logic.isClaimable(row, s.rows(), s.clock(), poller)) {
                ids.add(row.id());
            }
        }
        return ids;
    }

    /** Writes a fresh lease for {@code poller} on each row, at the current clock; no re-check. */
    public static StepResult writeLeases(RelayLogic logic, RelayState s, String poller, List<String> ids, int leaseTicks) {
        RelayState next = s;
        List<Grant> grants = new ArrayList<>();
        for (String id : ids) {
            OutboxRow row = next.row(id).orElseThrow();
            long token = logic.issueToken(row, next.lastToken(), poller);
            int expiry = logic.leaseExpiry(next.clock(), leaseTicks);
            next = next.withRow(row.withLease(new Lease(poller, token, expiry)))
                    .withLastToken(Math.max(next.lastToken(), token));
            grants.add(new Grant(id, token, expiry, row.hasLease()));
        }
        return new StepResult(next, new Outcome.Claimed(grants));
    }

    /** An atomic claim: select the claimable rows and lease them in one transaction. */
    public static StepResult claim(RelayLogic logic, RelayState s, String poller, int batch, int leaseTicks) {
        return writeLeases(logic, s, poller, claimableIds(logic, s, batch, poller), leaseTicks);
    }

    /** The consumer transaction, or the first of its two transactions for a split consumer. */
    public static StepResult consume(RelayLogic logic, RelayState s, Event e, long token) {
        ConsumerState c = s.consumer();
        String key = logic.dedupKey(e, token);
        if (logic.consumerChecksMarker() && c.hasMarkerKey(key)) {
            return new StepResult(s, new Outcome.Duplicate(e.id()));
        }
        return switch (logic.consumerShape()) {
            case ONE_TRANSACTION ->
                    new StepResult(s.withConsumer(c.withMarker(key, e.id()).withEffect(e)), new Outcome.Applied(e.id()));
            case MARKER_THEN_EFFECT ->
                    new StepResult(s.withConsumer(c.withMarker(key, e.id())), new Outcome.HalfApplied(e.id(), "marker"));
            case EFFECT_THEN_MARKER ->
                    new StepResult(s.withConsumer(c.withEffect(e)), new Outcome.HalfApplied(e.id(), "effect"));
        };
    }

    /** The second transaction of a split consumer: whichever of marker and effect the first left out. */
    public static StepResult consumeSecondHalf(RelayLogic logic, RelayState s, Event e, long token) {
        ConsumerState c = s.consumer();
        ConsumerState after = switch (logic.consumerShape()) {
            case MARKER_THEN_EFFECT -> c.withEffect(e);
            case EFFECT_THEN_MARKER -> c.withMarker(logic.dedupKey(e, token), e.id());
            case ONE_TRANSACTION -> throw new IllegalStateException("a one-transaction consumer has no second half");
        };
        return new StepResult(s.withConsumer(after), new Outcome.Applied(e.id()));
    }

    /** The fenced ack by {@code poller} at the current clock: DELIVERED if the logic accepts it, else STALE. */
    public static StepResult ack(RelayLogic logic, RelayState s, String poller, String eventId, long token) {
        return ack(s, eventId, token, row -> logic.acceptsAck(row, token, poller, s.clock()));
    }

    /**
     * The fenced ack of a store whose API does not say who acks (the thread-safe store and its sequential
     * specification): asks the logic's decision without the context.
     */
    public static StepResult ack(RelayLogic logic, RelayState s, String eventId, long token) {
        return ack(s, eventId, token, row -> logic.acceptsAck(row, token));
    }

    private static StepResult ack(RelayState s, String eventId, long token, Predicate<OutboxRow> accepts) {
        return fenced(s, eventId, token, accepts, OutboxRow::delivered, new Outcome.Acked(eventId, token));
    }

    /** The fenced release by {@code poller} after a failed delivery: clears the lease if the logic accepts it. */
    public static StepResult release(RelayLogic logic, RelayState s, String poller, String eventId, long token) {
        return release(s, eventId, token, row -> logic.acceptsRelease(row, token, poller, s.clock()));
    }

    /** The fenced release of a store whose API does not say who releases (see {@link #ack(RelayLogic, RelayState, String, long)}). */
    public static StepResult release(RelayLogic logic, RelayState s, String eventId, long token) {
        return release(s, eventId, token, row -> logic.acceptsRelease(row, token));
    }

    private static StepResult release(RelayState s, String eventId, long token, Predicate<OutboxRow> accepts) {
        return fenced(s, eventId, token, accepts, row -> row.withLease(null), new Outcome.Released(eventId, token));
    }

    /** Ack and release: {@code change} the row and answer {@code done} if the logic {@code accepts} it, else STALE. */
    private static StepResult fenced(RelayState s, String eventId, long token, Predicate<OutboxRow> accepts,
                                     UnaryOperator<OutboxRow> change, Outcome done) {
        OutboxRow row = s.row(eventId).orElseThrow(() -> new IllegalArgumentException("no outbox row " + eventId));
        if (accepts.test(row)) {
            return new StepResult(s.withRow(change.apply(row)), done);
        }
        return new StepResult(s, new Outcome.Stale(eventId, token, row.currentToken()));
    }

    /** One clock tick. */
    public static RelayState tick(RelayState s) {
        return s.ticked();
    }

    /** The producer transaction: business write and outbox row together. */
    public static StepResult produce(RelayState s, Event e) {
        return new StepResult(s.withBusinessWrite(e.id()).withInsertedRow(OutboxRow.pending(e)), new Outcome.Produced(e.id()));
    }

    /** Only the business write (first transaction of a producer that inserts the outbox row separately). */
    public static StepResult businessWriteOnly(RelayState s, Event e) {
        return new StepResult(s.withBusinessWrite(e.id()), new Outcome.BusinessWritten(e.id()));
    }

    /** Only the outbox insert (second transaction of that producer). */
    public static StepResult outboxInsertOnly(RelayState s, Event e) {
        return new StepResult(s.withInsertedRow(OutboxRow.pending(e)), new Outcome.Produced(e.id()));
    }
}
