package dev.relaycheck.jdbc.world;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.db.Tx;
import dev.relaycheck.jdbc.relay.SqlShape;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.Step;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The producing service: commits the business row ({@code stock_order}) and, through the relay's
 * {@link RelayAdapter#enqueue}, the outbox row. Correct: one
 * transaction. The outbox-outside-transaction variant commits them in two, one per step. In a scenario whose
 * producers overlap, each event's transaction is opened by {@link #begin} on a connection of its own (the row is
 * inserted with its sequence, not visible to anyone else) and committed later by {@link #commit}, in any order.
 */
public final class Producer {
    private final SqlShape shape;
    private final RelayAdapter adapter;
    private final List<Event> events;
    private final Connection outbox;
    private final UserCode user;
    private ProducerState state;
    /** The open transactions of overlapping producers, in the order they began (which is sequence order). */
    private final Map<String, Open> open = new LinkedHashMap<>();

    private record Open(Event event, Connection connection) {
    }

    public Producer(SqlShape shape, RelayAdapter adapter, List<Event> events, Connection outbox, ProducerState initial) {
        this(shape, adapter, events, outbox, initial, UserCode.NONE);
    }

    /** A producer whose transaction also runs the team's own business write ({@link UserCode#businessWrite}). */
    public Producer(SqlShape shape, RelayAdapter adapter, List<Event> events, Connection outbox, ProducerState initial,
                    UserCode user) {
        this.user = user;
        this.shape = shape;
        this.adapter = adapter;
        this.events = List.copyOf(events);
        this.outbox = outbox;
        this.state = initial;
    }

    public ProducerState state() {
        return state;
    }

    public boolean finished() {
        return state.next() >= events.size();
    }

    /** Commits the next event (or, for a split producer, its next half). */
    public Action produce() {
        Event e = events.get(state.next());
        Step step = new Step.Produce(e.id());
        try {
            if (shape.producerInOneTransaction()) {
                writeBusiness(e);
                adapter.enqueue(outbox, e);
                outbox.commit();
                state = new ProducerState(state.next() + 1, false);
                return new Action(step, new Outcome.Produced(e.id()));
            }
            if (!state.businessOnly()) {
                writeBusiness(e);
                outbox.commit();
                state = new ProducerState(state.next(), true);
                return new Action(step, new Outcome.BusinessWritten(e.id()));
            }
            adapter.enqueue(outbox, e);
            outbox.commit();
            state = new ProducerState(state.next() + 1, false);
            return new Action(step, new Outcome.Produced(e.id()));
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, "produce " + e.id(), ex);
        }
    }

    /**
     * An overlapping producer opens its transaction on {@code own} (a connection of its own) and writes the next
     * event's business row and outbox row with its sequence, without committing: the row exists, nobody else sees it.
     */
    public Action begin(Connection own) {
        Event e = events.get(state.next());
        try {
            insertBusinessRow(own, e);
            user.businessWrite().write(own, e);
            adapter.enqueue(own, e);
        } catch (SQLException ex) {
            Tx.rollbackQuietly(own, ex);
            closeQuietly(own);
            throw new RelaySqlException("begin " + e.id(), ex);
        }
        open.put(e.id(), new Open(e, own));
        state = new ProducerState(state.next() + 1, false);
        return new Action(new Step.Begin(e.id()), new Outcome.Begun(e.id(), e.seq()));
    }

    /**
     * Commits the open transaction of {@code eventId}: its rows become visible. Late when a row with a later
     * sequence was visible already (read on the producer's own connection right before). Null when it is not open.
     */
    public Action commit(String eventId) {
        Open o = open.remove(eventId);
        if (o == null) {
            return null;
        }
        boolean late;
        try {
            late = adapter.snapshot(outbox).rows().stream().anyMatch(r -> r.event().seq() > o.event().seq());
            outbox.commit();
            o.connection().commit();
        } catch (SQLException ex) {
            Tx.rollbackQuietly(o.connection(), ex);
            throw Tx.rollbackAndWrap(outbox, "commit " + eventId, ex);
        } finally {
            closeQuietly(o.connection());
        }
        return new Action(new Step.Commit(eventId), new Outcome.Committed(eventId, late));
    }

    /** The events whose transactions are open, in the order they began. */
    public List<Event> inFlight() {
        return open.values().stream().map(Open::event).toList();
    }

    /** Rolls back and closes every open transaction (a new run, or the end of one): their rows never appear. */
    public void abandon() {
        for (Open o : new ArrayList<>(open.values())) {
            try {
                o.connection().rollback();
            } catch (SQLException ignored) {
                // the connection is closed next either way; the database rolls back what it held
            }
            closeQuietly(o.connection());
        }
        open.clear();
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing left to protect on a connection being thrown away
        }
    }

    /**
     * The producer's current transaction fails before commit: its statements run and are rolled back, and
     * the producer gives up that event. For a split producer standing between its two commits, only the
     * outbox insert is lost; the business row stays committed.
     */
    public Action fail() {
        Event e = events.get(state.next());
        boolean businessSurvives = state.businessOnly();
        try {
            if (!businessSurvives) {
                writeBusiness(e);
            }
            adapter.enqueue(outbox, e);
            outbox.rollback();
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, "failed produce " + e.id(), ex);
        }
        state = new ProducerState(state.next() + 1, false);
        return new Action(new Step.ProduceFails(e.id()), new Outcome.ProduceFailed(e.id(), businessSurvives));
    }

    private void writeBusiness(Event e) throws SQLException {
        insertBusinessRow(outbox, e);
        user.businessWrite().write(outbox, e);
    }

    static void insertBusinessRow(Connection c, Event e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO stock_order (order_id, sku, quantity) VALUES (?, ?, ?)")) {
            ps.setString(1, e.id());
            ps.setString(2, e.aggregate());
            ps.setInt(3, e.quantity());
            ps.executeUpdate();
        }
    }
}
