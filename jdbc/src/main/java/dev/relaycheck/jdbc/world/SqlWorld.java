package dev.relaycheck.jdbc.world;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.db.Tx;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlShape;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayState.FaultCounts;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RelayTransactions.Finer;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Surroundings;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A scenario's whole world in SQL, driven one step at a time: the producer, one {@link SqlPoller} per
 * scenario poller (each with its own connections), the logical clock and the faults spent. A model step
 * names an actor; the actor then does what the SQL relay's own logic says it does next, so a relay that
 * behaves differently from the model shows up as a different step or outcome, not as an error.
 */
public final class SqlWorld implements AutoCloseable {
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
    /** The relay's cursor, if it reads by one: the pollers share it. */
    private final RelayCursor cursor = new RelayCursor();
    /** Rows that committed at or below a cursor relay's cursor: its claim-select will never return them. */
    private final TreeSet<String> passedOver = new TreeSet<>();
    /** Lease renewals taken so far (the scenario bounds them, as the model counts them). */
    private int renewals;
    /** Each poller's clock skew as the schedule chose it, in poller order (empty until chosen). */
    private final List<Integer> skews = new ArrayList<>();
    /** Which clock the leases skewed pollers wrote are on (the tables hold the number alone). */
    private final ExpiryClocks expiryClocks = new ExpiryClocks();
    /** Events whose dedup marker the consumer's inbox cleanup purged by its retention policy. */
    private final TreeSet<String> purged = new TreeSet<>();
    /** Rows the relay's outbox cleanup deleted, each as it was just before (what NO_LOST_EVENT judges, as in the model). */
    private final java.util.TreeMap<String, String> cleanedUp = new java.util.TreeMap<>();
    /** The outbox cleanup job's own adapter and connection (opened where the scenario runs the job). */
    private final RelayAdapter cleanupJob;
    private final Connection cleanupConnection;

    /** Opens connections to databases that already have the schema; call {@link #reset} before a run. */
    public SqlWorld(RelayUnderTest relay, Scenario scenario, Databases dbs) throws SQLException {
        this(relay, scenario, dbs, UserCode.NONE);
    }

    /** The same world with the team's own business write and consumer handler inside relaycheck's transactions. */
    public SqlWorld(RelayUnderTest relay, Scenario scenario, Databases dbs, UserCode user) throws SQLException {
        this.relay = relay;
        this.user = user;
        this.observer = relay.newAdapter();
        this.scenario = scenario;
        this.dbs = dbs;
        for (String name : scenario.pollers()) {
            pollers.add(new SqlPoller(name, relay, dbs, scenario.batch(), scenario.leaseTicks(), Pauses.NONE, user,
                    new PollerContext(cursor, Finer.of(scenario), datesMarkers() ? scenario.grantedLease(relay.traits().modelLogic()) : -1,
                            expiryClocks)));
        }
        this.producerConnection = dbs.openOutbox();
        this.observeOutbox = dbs.openOutbox();
        this.observeConsumer = dbs.openConsumer();
        this.cleanupJob = scenario.cleanup() ? relay.newAdapter() : null;
        this.cleanupConnection = scenario.cleanup() ? dbs.openOutbox() : null;
    }

    public RelayUnderTest relay() {
        return relay;
    }

    public Scenario scenario() {
        return scenario;
    }

    /** Back to the scenario's initial state: tables reloaded, clock 0, pollers and producer fresh. */
    public void reset() {
        if (producer != null) {
            producer.abandon(); // an open producer transaction of the last run would hold its rows
        }
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
        cursor.reset();
        passedOver.clear();
        renewals = 0;
        purged.clear();
        cleanedUp.clear();
        skews.clear();
        expiryClocks.clear();
        pollers.forEach(p -> p.skew(0));
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
        Action a = take(step);
        cleanInbox(null);
        return a;
    }

    private Action take(Step step) {
        if (step instanceof Step.Purge p) {
            return cleanInbox(p.eventId());
        }
        if (step instanceof Step.Cleanup) {
            return cleanOutbox();
        }
        if (step instanceof Step.Tick) {
            clock++;
            return new Action(step, new Outcome.Ticked(clock));
        }
        if (step instanceof Step.Produce) {
            return producer.finished() ? null : producer.produce();
        }
        if (step instanceof Step.Begin) {
            return producer.finished() ? null : begin();
        }
        if (step instanceof Step.Commit c) {
            return commit(c.eventId());
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
        if (step instanceof Step.Skew k) {
            skews.add(k.skew());
            return poller(k.poller()).skew(k.skew());
        }
        if (step instanceof Step.Renew) {
            Action a = p.renew(clock);
            if (a != null) {
                renewals++;
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

    /** An overlapping producer's transaction opens on a connection of its own. */
    private Action begin() {
        try {
            return producer.begin(dbs.openOutbox());
        } catch (SQLException ex) {
            throw new RelaySqlException("open a producer connection", ex);
        }
    }

    /**
     * An overlapping producer's transaction commits. A cursor relay whose cursor already passed the row's sequence
     * will never read it: the row is passed over (what NO_LOST_EVENT judges, as in the model).
     */
    private Action commit(String eventId) {
        Action a = producer.commit(eventId);
        if (a != null && keepsCursor() && scenario.event(eventId).seq() <= cursor.value()) {
            passedOver.add(eventId);
        }
        return a;
    }

    /**
     * Whether this world reports a cursor relay's cursor: only where producers overlap, as in the model (elsewhere
     * no row can commit below the cursor, and the model's cursor relay is the reference logic, state for state).
     */
    private boolean keepsCursor() {
        return scenario.producersOverlap() && observer.readsByCursor();
    }

    /**
     * Lets one actor take its own next step, no model involved: the producer commits its next event (with
     * overlapping producers: opens the next transaction, or once all are open commits the oldest), a poller runs
     * its next transaction. Null when the producer is done.
     */
    public Action act(String actor) {
        Action a = actAlone(actor);
        cleanInbox(null);
        return a;
    }

    /**
     * The consumer's inbox cleanup (relaycheck's side, {@link SqlShape#retention}): deletes the markers older than the
     * retention, of {@code eventId} only (a schedule's Purge step) or of every event (the job running between steps).
     * Returns the Purge step it took for {@code eventId}, or null when nothing was due (or the consumer keeps markers
     * for ever).
     */
    private Action cleanInbox(String eventId) {
        java.util.OptionalInt retention = relay.shape().retention().ticks(scenario.leaseTicks());
        if (retention.isEmpty()) {
            return null;
        }
        int oldest = clock - retention.getAsInt();
        String only = eventId == null ? "" : " AND event_id = ?";
        try {
            Outcome.Purged first = null;
            try (java.sql.PreparedStatement ps = observeConsumer.prepareStatement("SELECT marker_key, event_id, written_at FROM applied_event"
                    + " WHERE written_at <= ?" + only + " ORDER BY event_id, marker_key")) {
                ps.setInt(1, oldest);
                if (eventId != null) {
                    ps.setString(2, eventId);
                }
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        purged.add(rs.getString(2));
                        if (first == null) {
                            first = new Outcome.Purged(rs.getString(2), rs.getString(1), rs.getInt(3), clock);
                        }
                    }
                }
            }
            try (java.sql.PreparedStatement ps = observeConsumer.prepareStatement("DELETE FROM applied_event WHERE written_at <= ?" + only)) {
                ps.setInt(1, oldest);
                if (eventId != null) {
                    ps.setString(2, eventId);
                }
                ps.executeUpdate();
            }
            observeConsumer.commit();
            return first == null ? null : new Action(new Step.Purge(first.eventId()), first);
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(observeConsumer, "inbox cleanup", ex);
        }
    }

    /**
     * The outbox cleanup job (the relay's own, {@link RelayAdapter#cleanup}) in a transaction of its own: the rows it
     * deleted, each as it was just before, read back around the call. Null for a relay without one.
     */
    private Action cleanOutbox() {
        if (cleanupJob == null || !cleanupJob.cleansUp()) {
            return null;
        }
        try {
            List<OutboxRow> before = cleanupJob.snapshot(cleanupConnection).rows();
            cleanupJob.cleanup(cleanupConnection, clock);
            TreeSet<String> left = new TreeSet<>();
            cleanupJob.snapshot(cleanupConnection).rows().forEach(r -> left.add(r.id()));
            cleanupConnection.commit();
            List<OutboxRow> deleted = before.stream().filter(r -> !left.contains(r.id())).toList();
            deleted.forEach(r -> cleanedUp.put(r.id(), Surroundings.asDeleted(r)));
            return new Action(new Step.Cleanup(), new Outcome.CleanedUp(deleted, clock));
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(cleanupConnection, "outbox cleanup", ex);
        }
    }

    /**
     * Whether the model stamps markers with their write tick here: where the scenario asks to see late redeliveries
     * (the relay under test is compared with a logic that keeps markers for ever).
     */
    private boolean datesMarkers() {
        return scenario.requiredWitnesses().contains(dev.relaycheck.model.Witness.LATE_REDELIVERY);
    }

    private Action actAlone(String actor) {
        if (actor.equals(Scenario.PRODUCER)) {
            if (scenario.producersOverlap()) {
                List<Event> open = producer.inFlight();
                return !producer.finished() ? begin() : open.isEmpty() ? null : commit(open.get(0).id());
            }
            return producer.finished() ? null : producer.produce();
        }
        return poller(actor).runNext(clock);
    }

    /** The whole state, rebuilt from the tables plus what lives outside them. */
    public RelayState snapshot() {
        List<PollerState> states = pollers.stream().map(SqlPoller::state).toList();
        Surroundings hazards = new Surroundings(renewals, skews, producer.inFlight(), keepsCursor() ? cursor.value() : 0, passedOver,
                cleanedUp);
        return expiryClocks.applyTo(Snapshots.read(observeOutbox, observeConsumer, observer,
                new Snapshots.Local(clock, states, producer.state(), faults), hazards, new Snapshots.Dedup(datesMarkers(), purged)));
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.abandon();
        }
        pollers.forEach(SqlPoller::close);
        for (Connection c : new Connection[]{producerConnection, observeOutbox, observeConsumer, cleanupConnection}) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing at the end of a run; nothing left to protect
            }
        }
    }
}
