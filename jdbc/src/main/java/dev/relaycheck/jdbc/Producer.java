package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.Step;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * The producing service: commits the business row ({@code stock_order}) and, through the relay's
 * {@link RelayAdapter#enqueue}, the outbox row. Correct: one
 * transaction. The outbox-outside-transaction variant commits them in two, one per step.
 */
public final class Producer {
    private final SqlShape shape;
    private final RelayAdapter adapter;
    private final List<Event> events;
    private final Connection outbox;
    private final UserCode user;
    private ProducerState state;

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
