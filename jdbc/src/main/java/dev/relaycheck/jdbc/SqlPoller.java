package dev.relaycheck.jdbc;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.PollerState.Phase;
import dev.relaycheck.model.Step;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One relay poller over SQL: its own connections to both databases and its local memory (what it claimed
 * and where it is in its batch, the model's {@link PollerState}). {@link #runNext} runs the one transaction
 * the poller would run next, exactly as the model's poller decides it; the fault methods are what the
 * world does to it. Not thread-safe: one thread drives one poller.
 */
public final class SqlPoller implements AutoCloseable {
    private final String name;
    private final SqlShape shape;
    private final Databases dbs;
    private final OutboxSql outboxSql;
    private final ConsumerSql consumerSql;
    private final int batch;
    private final int leaseTicks;
    private final Pauses pauses;
    private Connection outbox;
    private Connection consumer;
    private PollerState state = PollerState.IDLE;
    /** The events of the rows it holds (a real poller carries the payload it read with its claim). */
    private final Map<String, Event> carried = new TreeMap<>();
    private List<OutboxSql.Candidate> readSet = List.of();

    public SqlPoller(String name, SqlVariant variant, ClaimForm form, Databases dbs, int batch, int leaseTicks, Pauses pauses)
            throws SQLException {
        this.name = name;
        this.shape = variant.shape();
        this.dbs = dbs;
        this.outboxSql = new OutboxSql(shape, form);
        this.consumerSql = new ConsumerSql(shape);
        this.batch = batch;
        this.leaseTicks = leaseTicks;
        this.pauses = pauses;
        connect();
    }

    private void connect() throws SQLException {
        outbox = dbs.openOutbox();
        consumer = dbs.openConsumer();
    }

    public String name() {
        return name;
    }

    public PollerState state() {
        return state;
    }

    public boolean isIdle() {
        return state.isIdle();
    }

    /** Runs the poller's next transaction at logical time {@code now}. */
    public Action runNext(int now) {
        return switch (state.phase()) {
            case IDLE -> shape.claimShape() == SqlShape.ClaimShape.ATOMIC ? claim(now) : readForClaim(now);
            case CLAIMING -> writeClaim(now);
            case TO_DELIVER -> deliver();
            case DELIVERING -> deliverSecondHalf();
            case TO_ACK -> ack();
            case TO_RELEASE -> release();
        };
    }

    private Action claim(int now) {
        OutboxSql.Claim claim = outboxSql.claim(outbox, name, now, batch, leaseTicks, pauses);
        claim.events().forEach(e -> carried.put(e.id(), e));
        take(claim.outcome());
        return new Action(new Step.Claim(name), claim.outcome());
    }

    private Action readForClaim(int now) {
        List<OutboxSql.Candidate> seen = outboxSql.readClaimable(outbox, now, batch);
        if (seen.isEmpty()) {
            return new Action(new Step.Claim(name), new Outcome.Claimed(List.of()));
        }
        readSet = List.copyOf(seen);
        state = new PollerState(Phase.CLAIMING, List.of(), seen.stream().map(c -> c.event().id()).toList());
        return new Action(new Step.Claim(name), new Outcome.ClaimRead(state.readSet()));
    }

    private Action writeClaim(int now) {
        pauses.at(Pauses.Point.MID_CLAIM);
        Outcome.Claimed claimed = outboxSql.writeLeases(outbox, name, readSet, now, leaseTicks);
        readSet.forEach(c -> carried.put(c.event().id(), c.event()));
        readSet = List.of();
        take(claimed);
        return new Action(new Step.Claim(name), claimed);
    }

    private void take(Outcome.Claimed claimed) {
        if (claimed.grants().isEmpty()) {
            state = PollerState.IDLE;
            return;
        }
        List<Held> held = new ArrayList<>();
        for (Outcome.Grant g : claimed.grants()) {
            held.add(new Held(g.eventId(), g.token()));
        }
        state = new PollerState(firstPhaseOfItem(), held, List.of());
    }

    /** The event of a held row, as the claim read it. */
    private Event event(String id) {
        Event e = carried.get(id);
        if (e == null) {
            throw new IllegalStateException(name + " holds " + id + " but never read its event");
        }
        return e;
    }

    private Action deliver() {
        pauses.at(Pauses.Point.BEFORE_DELIVER);
        Held h = state.head();
        Outcome o = consumerSql.deliver(consumer, event(h.eventId()), h.token());
        state = o instanceof Outcome.HalfApplied ? at(Phase.DELIVERING) : afterDelivery();
        return new Action(new Step.Deliver(name, h.eventId(), h.token()), o);
    }

    private Action deliverSecondHalf() {
        Held h = state.head();
        Outcome o = consumerSql.deliverSecondHalf(consumer, event(h.eventId()), h.token());
        state = afterDelivery();
        return new Action(new Step.Deliver(name, h.eventId(), h.token()), o);
    }

    private Action ack() {
        pauses.at(Pauses.Point.BEFORE_ACK);
        Held h = state.head();
        Outcome o = outboxSql.ack(outbox, h.eventId(), h.token());
        state = shape.ackFirst() ? at(Phase.TO_DELIVER) : advance();
        return new Action(new Step.Ack(name, h.eventId(), h.token()), o);
    }

    private Action release() {
        Held h = state.head();
        Outcome o = outboxSql.release(outbox, h.eventId(), h.token());
        state = advance();
        return new Action(new Step.Release(name, h.eventId(), h.token()), o);
    }

    // ------------------------------------------------------------------ faults

    /** The poller process dies: open transactions roll back, connections drop, local memory is gone. */
    public Action crash() {
        List<String> forgotten = new ArrayList<>(state.readSet());
        state.batch().forEach(h -> forgotten.add(h.eventId()));
        try {
            closeConnections();
            connect();
        } catch (SQLException ex) {
            throw new RelaySqlException(name + " reconnect after crash", ex);
        }
        forget();
        return new Action(new Step.Crash(name), new Outcome.Crashed(name, forgotten));
    }

    /**
     * The consumer committed but the acknowledgement is lost: its UPDATE runs and the connection breaks
     * before COMMIT. The poller gives up its batch; the rows stay leased until they expire. Null when the
     * poller has no acknowledgement to lose.
     */
    public Action loseAck() {
        if (state.phase() != Phase.TO_ACK) {
            return null;
        }
        Held h = state.head();
        outboxSql.ackLostBeforeCommit(outbox, h.eventId(), h.token());
        List<String> abandoned = state.batch().stream().map(Held::eventId).toList();
        forget();
        return new Action(new Step.LoseAck(name, h.eventId()), new Outcome.AckLost(h.eventId(), abandoned));
    }

    /** The consumer transaction fails before COMMIT; the poller will release the row. Null when not delivering. */
    public Action deliverFails() {
        if (state.phase() != Phase.TO_DELIVER) {
            return null;
        }
        Held h = state.head();
        Outcome o = consumerSql.deliverAndFail(consumer, event(h.eventId()), h.token());
        state = at(Phase.TO_RELEASE);
        return new Action(new Step.DeliverFails(name, h.eventId()), o);
    }

    /** Forgets local state without touching the database (a fresh start of a scenario). */
    void forget() {
        state = PollerState.IDLE;
        readSet = List.of();
        carried.clear();
    }

    // ------------------------------------------------------------------ local state, as the model moves it

    private Phase firstPhaseOfItem() {
        return shape.ackFirst() ? Phase.TO_ACK : Phase.TO_DELIVER;
    }

    private PollerState at(Phase next) {
        return new PollerState(next, state.batch(), state.readSet());
    }

    private PollerState afterDelivery() {
        return shape.ackFirst() ? advance() : at(Phase.TO_ACK);
    }

    private PollerState advance() {
        List<Held> b = state.batch();
        if (b.size() <= 1) {
            carried.clear();
            return PollerState.IDLE;
        }
        carried.remove(b.get(0).eventId());
        return new PollerState(firstPhaseOfItem(), b.subList(1, b.size()), List.of());
    }

    private void closeConnections() {
        for (Connection c : new Connection[]{outbox, consumer}) {
            try {
                c.rollback();
                c.close();
            } catch (SQLException ignored) {
                // a crashed poller's connection may already be broken; the database rolls it back either way
            }
        }
    }

    @Override
    public void close() {
        closeConnections();
    }
}
