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
        return claimableIds(logic, s, batch, poller, s.clock());
    }

    /**
     * {@link #claimableIds(RelayLogic, RelayState, int, String)} for a poller whose clock reads {@code pollerClock}
     * (the database's clock plus its skew); a cursor relay also sees only the rows its cursor lets it discover.
     */
    public static List<String> claimableIds(RelayLogic logic, RelayState s, int batch, String poller, int pollerClock) {
        List<String> ids = new ArrayList<>();
        for (OutboxRow row : s.rows()) {
            if (ids.size() == batch) {
                break;
            }
            if (cursorAdmits(logic, s, row) && logic.isClaimable(row, s.rows(), s.clock(), poller, pollerClock)) {
                ids.add(row.id());
            }
        }
        return ids;
    }

    /** Whether the relay's cursor lets it see {@code row} (always, for a relay that claims by status). */
    private static boolean cursorAdmits(RelayLogic logic, RelayState s, OutboxRow row) {
        Surroundings h = s.surroundings();
        return switch (logic.cursorRule()) {
            case NONE -> true;
            case AFTER_LAST_SEEN -> !h.passedOver().contains(row.id());
            case WAITS_FOR_IN_FLIGHT -> !h.passedOver().contains(row.id())
                    && (row.event().seq() <= h.cursor() || row.event().seq() < h.lowestInFlightSeq());
        };
    }

    /** Writes a fresh lease for {@code poller} on each row, at the current clock; no re-check. */
    public static StepResult writeLeases(RelayLogic logic, RelayState s, String poller, List<String> ids, int leaseTicks) {
        return writeLeases(logic, s, poller, ids, leaseTicks, s.clock());
    }

    /**
     * {@link #writeLeases(RelayLogic, RelayState, String, List, int)} by a poller whose clock reads
     * {@code pollerClock}.
     */
    public static StepResult writeLeases(RelayLogic logic, RelayState s, String poller, List<String> ids, int leaseTicks,
                                         int pollerClock) {
        RelayState next = s;
        List<Grant> grants = new ArrayList<>();
        boolean perRow = logic.tokenPolicy() == RelayLogic.TokenPolicy.PER_ROW_VERSION;
        for (String id : ids) {
            OutboxRow row = next.row(id).orElse(null);
            if (row == null) {
                continue; // the cleanup deleted it after a check-then-act claim read it: the write matches no row
            }
            long token = logic.issueToken(row, perRow ? row.version() : next.lastToken(), poller);
            int expiry = logic.leaseExpiry(next.clock(), leaseTicks, pollerClock);
            OutboxRow leased = row.withLease(new Lease(poller, token, expiry,
                    expiryClockSkew(logic, next.clock(), leaseTicks, pollerClock, expiry)));
            // per-row versions: the claim writes the row's new version; the global counter stays unused (0)
            next = perRow ? next.withRow(leased.withVersion(token))
                    : next.withRow(leased).withLastToken(Math.max(next.lastToken(), token));
            grants.add(new Grant(id, token, expiry, row.hasLease()));
        }
        return new StepResult(next, new Outcome.Claimed(grants));
    }

    /**
     * The clock an expiry the logic wrote is on, as its offset from the database's: the writer's skew when the logic
     * computes it from the poller's clock (its answer for the database's clock differs), else 0.
     */
    private static int expiryClockSkew(RelayLogic logic, int now, int leaseTicks, int pollerClock, int expiry) {
        return pollerClock == now || expiry == Lease.NEVER || logic.leaseExpiry(now, leaseTicks, now) == expiry ? 0 : pollerClock - now;
    }

    /**
     * A lease renewal (heartbeat) by {@code poller} presenting {@code token}, whose clock reads {@code pollerClock}:
     * extends the row's lease if the logic accepts it, owner and token unchanged.
     */
    public static StepResult renew(RelayLogic logic, RelayState s, String poller, String eventId, long token,
                                   int leaseTicks, int pollerClock) {
        OutboxRow row = s.row(eventId).orElse(null);
        if (row != null && logic.acceptsRenewal(row, token, poller, s.clock())) {
            int expiry = logic.leaseExpiry(s.clock(), leaseTicks, pollerClock);
            int on = expiryClockSkew(logic, s.clock(), leaseTicks, pollerClock, expiry);
            Lease renewed = row.hasLease() ? new Lease(row.lease().owner(), row.lease().token(), expiry, on)
                    : new Lease(poller, token, expiry, on);
            return new StepResult(s.withRow(row.withLease(renewed)).withSurroundings(s.surroundings().renewed()),
                    new Outcome.Renewed(eventId, token, expiry));
        }
        return new StepResult(s.withSurroundings(s.surroundings().renewed()),
                new Outcome.RenewalRefused(eventId, token, currentToken(s, eventId), List.of()));
    }

    /**
     * The commit of an overlapping producer's transaction begun earlier: the business write and the row become
     * visible. A cursor relay whose cursor already passed the row's sequence will never read it.
     */
    public static StepResult commit(RelayLogic logic, RelayState s, Event e) {
        boolean late = false;
        for (OutboxRow r : s.rows()) {
            late |= r.event().seq() > e.seq(); // a row with a later sequence is visible already
        }
        boolean passed = logic.cursorRule() != RelayLogic.CursorRule.NONE && e.seq() <= s.surroundings().cursor();
        RelayState next = produce(s, e).state();
        return new StepResult(next.withSurroundings(next.surroundings().committed(e.id(), passed)), new Outcome.Committed(e.id(), late));
    }

    /** An atomic claim: select the claimable rows and lease them in one transaction. */
    public static StepResult claim(RelayLogic logic, RelayState s, String poller, int batch, int leaseTicks) {
        return writeLeases(logic, s, poller, claimableIds(logic, s, batch, poller), leaseTicks);
    }

    /**
     * One transaction that delivers and acknowledges (a relay with {@link RelayLogic#deliversAndAcksTogether()}):
     * if the logic accepts the ack for {@code token}, the consumer transaction runs and the row becomes DELIVERED
     * in the same commit (outcome APPLIED, or DUPLICATE when the consumer had applied it before); otherwise
     * nothing changes and the outcome is STALE (the row moved on: the relay's lock or fenced delete refused it).
     */
    public static StepResult deliverAndAck(RelayLogic logic, RelayState s, String poller, Event e, long token) {
        OutboxRow row = s.row(e.id()).orElse(null);
        if (row == null || !logic.acceptsAck(row, token, poller, s.clock())) {
            return new StepResult(s, new Outcome.Stale(e.id(), token, currentToken(s, e.id())));
        }
        StepResult consumed = consume(logic, s, e, token);
        RelayState after = consumed.state();
        return new StepResult(after.withRow(after.row(e.id()).orElseThrow().delivered()), consumed.outcome());
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
        StepResult r = ack(s, eventId, token, row -> logic.acceptsAck(row, token));
        return r.outcome() instanceof Outcome.Stale ? unmatched(logic, s, eventId, Outcome.Unmatched.ACK,
                token, Finer.NONE) : r; // a poller that ignores the result unlocks anyway
    }

    private static StepResult ack(RelayState s, String eventId, long token, Predicate<OutboxRow> accepts) {
        return fenced(s, eventId, token, accepts, OutboxRow::delivered, new Outcome.Acked(eventId, token));
    }

    /** The fenced release by {@code poller} after a failed delivery: clears the lease if the logic accepts it. */
    public static StepResult release(RelayLogic logic, RelayState s, String poller, String eventId, long token) {
        return release(logic, s, eventId, token, row -> logic.acceptsRelease(row, token, poller, s.clock()));
    }

    /** The fenced release of a store whose API does not say who releases (see {@link #ack(RelayLogic, RelayState, String, long)}). */
    public static StepResult release(RelayLogic logic, RelayState s, String eventId, long token) {
        StepResult r = release(logic, s, eventId, token, row -> logic.acceptsRelease(row, token));
        return r.outcome() instanceof Outcome.Stale ? unmatched(logic, s, eventId, Outcome.Unmatched.RELEASE, token,
                Finer.NONE) : r;
    }

    /** Clears the lease; with per-row versions the release is a fenced write too, so it increments the version. */
    private static StepResult release(RelayLogic logic, RelayState s, String eventId, long token, Predicate<OutboxRow> accepts) {
        return fenced(s, eventId, token, accepts, row -> released(logic, row), new Outcome.Released(eventId, token));
    }

    private static OutboxRow released(RelayLogic logic, OutboxRow row) {
        boolean perRow = logic.tokenPolicy() == RelayLogic.TokenPolicy.PER_ROW_VERSION;
        return perRow ? row.withLease(null).withVersion(row.version() + 1) : row.withLease(null);
    }

    /** Ack and release: {@code change} the row and answer {@code done} if the logic {@code accepts} it, else STALE. */
    private static StepResult fenced(RelayState s, String eventId, long token, Predicate<OutboxRow> accepts,
                                     UnaryOperator<OutboxRow> change, Outcome done) {
        OutboxRow row = s.row(eventId).orElse(null);
        if (row != null && accepts.test(row)) {
            return new StepResult(s.withRow(change.apply(row)), done);
        }
        return new StepResult(s, new Outcome.Stale(eventId, token, currentToken(s, eventId)));
    }

    /**
     * Which finer outcomes an ack or release reports: {@code midBatch}, an ack made with rows of the
     * batch still to deliver; {@code unmatched}, an ack or release that matched no row, saying which.
     */
    public record Finer(boolean midBatch, boolean unmatched) {
        public static final Finer NONE = new Finer(false, false);

        /** The finer outcomes {@code scenario} asks for: those its required witnesses are made of. */
        public static Finer of(Scenario scenario) {
            java.util.Set<Witness> w = scenario.requiredWitnesses();
            return new Finer(w.contains(Witness.ACK_MID_BATCH), w.contains(Witness.UNMATCHED_ACK) || w.contains(Witness.UNMATCHED_RELEASE));
        }
    }

    /**
     * The fenced ack of the head of {@code batch} by {@code poller}, touching the rows the logic's ack names
     * ({@link RelayLogic#rowsAckTouches}); an ack that matched no row is followed by the unlock of a poller
     * that does not read the result ({@link RelayLogic#unlocksAfterSettling}).
     */
    public static StepResult ack(RelayLogic logic, RelayState s, String poller, List<Held> batch, Finer finer) {
        Held head = batch.get(0);
        OutboxRow row = s.row(head.eventId()).orElse(null);
        if (row == null || !logic.acceptsAck(row, head.token(), poller, s.clock())) {
            return unmatched(logic, s, head.eventId(), Outcome.Unmatched.ACK, head.token(), finer);
        }
        RelayState next = s.withRow(row.delivered());
        List<String> also = new ArrayList<>();
        for (String id : logic.rowsAckTouches(row, head.token(), poller, batch, s.rows())) {
            OutboxRow other = next.row(id).orElse(null);
            if (!id.equals(row.id()) && other != null && other.isPending()) {
                next = next.withRow(other.delivered());
                also.add(id);
            }
        }
        List<String> still = batch.subList(1, batch.size()).stream().map(Held::eventId).toList();
        boolean mid = !also.isEmpty() || finer.midBatch() && !still.isEmpty();
        return new StepResult(next, mid ? new Outcome.AckedMidBatch(row.id(), head.token(), still, also)
                : new Outcome.Acked(row.id(), head.token()));
    }

    /** The fenced release of {@code held} by {@code poller}, with the unlock that follows an unread result. */
    public static StepResult release(RelayLogic logic, RelayState s, String poller, Held held, Finer finer) {
        OutboxRow row = s.row(held.eventId()).orElse(null);
        if (row == null || !logic.acceptsRelease(row, held.token(), poller, s.clock())) {
            return unmatched(logic, s, held.eventId(), Outcome.Unmatched.RELEASE, held.token(), finer);
        }
        return new StepResult(s.withRow(released(logic, row)), new Outcome.Released(row.id(), held.token()));
    }

    /**
     * An ack or release that matched no row. A poller that reads the result knows it did not apply; one that
     * does not, and unlocks after settling, clears the row's lease by id believing the row is its own and done.
     */
    private static StepResult unmatched(RelayLogic logic, RelayState s, String eventId, String what, long token, Finer finer) {
        OutboxRow row = s.row(eventId).orElse(null);
        boolean unlocks = logic.unlocksAfterSettling() && !logic.readsSettleResult() && row != null && row.hasLease();
        long current = currentToken(s, eventId);
        if (unlocks) {
            return new StepResult(s.withRow(row.withLease(null)), new Outcome.Unmatched(what, eventId, token, current, true));
        }
        return new StepResult(s, finer.unmatched() ? new Outcome.Unmatched(what, eventId, token, current, false)
                : new Outcome.Stale(eventId, token, current));
    }

    /** The row's current token for a refused ack, release or renewal: -1 for no lease, or the row is gone. */
    private static long currentToken(RelayState s, String eventId) {
        return s.row(eventId).map(OutboxRow::currentToken).orElse(Outcome.ROW_DELETED);
    }

    /** The rows the outbox cleanup would delete now, in sequence order. */
    public static List<OutboxRow> cleanupTakes(RelayLogic logic, RelayState s) {
        List<OutboxRow> taken = new ArrayList<>();
        for (OutboxRow r : s.rows()) {
            if (logic.cleanupTakes(r, s.clock())) {
                taken.add(r);
            }
        }
        return taken;
    }

    /** The outbox cleanup job: deletes the rows the logic's purge takes, remembering each as it was. */
    public static StepResult cleanup(RelayLogic logic, RelayState s) {
        List<OutboxRow> taken = cleanupTakes(logic, s);
        return new StepResult(s.withoutRows(taken).withSurroundings(s.surroundings().cleanedUp(taken)),
                new Outcome.CleanedUp(taken, s.clock()));
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
