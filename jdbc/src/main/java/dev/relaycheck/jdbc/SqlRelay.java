package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RelayState.FaultCounts;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's whole world in SQL, driven one step at a time: the producer, one {@link SqlPoller} per
 * scenario poller (each with its own connections), the logical clock and the faults spent. A model step
 * names an actor; the actor then does what the SQL relay's own logic says it does next, so a relay that
 * behaves differently from the model shows up as a different step or outcome, not as an error.
 */
public final class SqlRelay implements AutoCloseable {
    private final RelayUnderTest relay;
    private final RelayAdapter observer;
    private final Scenario scenario;
    private final Databases dbs;
    private final List<SqlPoller> pollers = new ArrayList<>();
    private final Connection producerConnection;
    private final Connection observeOutbox;
    private final Connection observeConsumer;
    private final UserCode user;
    private Producer producer;
    private int clock;
    private FaultCounts faults = FaultCounts.NONE;

    /** Opens connections to databases that already have the schema; call {@link #reset} before a run. */
    public SqlRelay(RelayUnderTest relay, Scenario scenario, Databases dbs) throws SQLException {
        this(relay, scenario, dbs, UserCode.NONE);
    }

    /** The same world with the team's own business write and consumer handler inside relaycheck's transactions. */
    public SqlRelay(RelayUnderTest relay, Scenario scenario, Databases dbs, UserCode user) throws SQLException {
        this.relay = relay;
        this.user = user;
        this.observer = relay.newAdapter();
        this.scenario = scenario;
        this.dbs = dbs;
        for (String name : scenario.pollers()) {
            pollers.add(new SqlPoller(name, relay, dbs, scenario.batch(), scenario.leaseTicks(), Pauses.NONE, user));
        }
        this.producerConnection = dbs.openOutbox();
        this.observeOutbox = dbs.openOutbox();
        this.observeConsumer = dbs.openConsumer();
    }

    public RelayUnderTest relay() {
        return relay;
    }

    public Scenario scenario() {
        return scenario;
    }

    /** Back to the scenario's initial state: tables reloaded, clock 0, pollers and producer fresh. */
    public void reset() {
        try {
            Schema.load(observeOutbox, observeConsumer, scenario, observer);
        } catch (SQLException ex) {
            throw new RelaySqlException("load scenario " + scenario.name(), ex);
        }
        pollers.forEach(SqlPoller::forget);
        int next = scenario.producedDuringRun() ? 0 : scenario.events().size();
        producer = new Producer(relay.shape(), relay.newAdapter(), scenario.events(), producerConnection, new ProducerState(next, false), user);
        clock = 0;
        faults = FaultCounts.NONE;
    }

    public int clock() {
        return clock;
    }

    public SqlPoller poller(String name) {
        return pollers.get(scenario.pollerIndex(name));
    }

    public List<SqlPoller> pollers() {
        return List.copyOf(pollers);
    }

    public Producer producer() {
        return producer;
    }

    /**
     * Lets the step's actor act. Returns what the SQL relay did, or null when the step cannot apply here
     * (a fault aimed at a poller that is not in the phase the fault needs, or a producer that is done), which
     * only happens once the SQL relay has already diverged from the model.
     */
    public Action apply(Step step) {
        if (step instanceof Step.Tick) {
            clock++;
            return new Action(step, new Outcome.Ticked(clock));
        }
        if (step instanceof Step.Produce) {
            return producer.finished() ? null : producer.produce();
        }
        if (step instanceof Step.ProduceFails) {
            if (producer.finished()) {
                return null;
            }
            faults = new FaultCounts(faults.crashes(), faults.lostAcks(), faults.deliverFails(), faults.produceFails() + 1);
            return producer.fail();
        }
        SqlPoller p = poller(step.actor());
        if (step instanceof Step.Crash) {
            faults = new FaultCounts(faults.crashes() + 1, faults.lostAcks(), faults.deliverFails(), faults.produceFails());
            return p.crash();
        }
        if (step instanceof Step.LoseAck) {
            Action a = p.loseAck(clock);
            if (a != null) {
                faults = new FaultCounts(faults.crashes(), faults.lostAcks() + 1, faults.deliverFails(), faults.produceFails());
            }
            return a;
        }
        if (step instanceof Step.DeliverFails) {
            Action a = p.deliverFails();
            if (a != null) {
                faults = new FaultCounts(faults.crashes(), faults.lostAcks(), faults.deliverFails() + 1, faults.produceFails());
            }
            return a;
        }
        return p.runNext(clock); // Claim, Deliver, Ack, Release: the poller runs its next transaction
    }

    /**
     * Lets one actor take its own next step, no model involved: the producer commits its next event, a
     * poller runs its next transaction. Null when the producer is done.
     */
    public Action act(String actor) {
        if (actor.equals(Scenario.PRODUCER)) {
            return producer.finished() ? null : producer.produce();
        }
        return poller(actor).runNext(clock);
    }

    /** The whole state, rebuilt from the tables plus what lives outside them. */
    public RelayState snapshot() {
        List<PollerState> states = pollers.stream().map(SqlPoller::state).toList();
        return Snapshots.read(observeOutbox, observeConsumer, observer, new Snapshots.Local(clock, states, producer.state(), faults));
    }

    @Override
    public void close() {
        pollers.forEach(SqlPoller::close);
        for (Connection c : new Connection[]{producerConnection, observeOutbox, observeConsumer}) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing at the end of a run; nothing left to protect
            }
        }
    }
}
