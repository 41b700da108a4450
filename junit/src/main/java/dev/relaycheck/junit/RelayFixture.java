package dev.relaycheck.junit;

import dev.relaycheck.jdbc.adapter.ClockGuardedAdapter;
import dev.relaycheck.jdbc.adapter.OwnerFencedTokens;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlShape;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.SqlPoller;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.jdbc.world.UserCode;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.PollerState.Phase;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The SQL relay under a test's control: relaycheck's producer, pollers, consumer and logical clock around the
 * relay under test (the team's {@link RelayAdapter}, the shipped reference relay, or a catalogue mistake), on
 * fresh embedded H2 databases. The test moves it one poll at a time ({@link #runOnce}, {@link #drain},
 * {@link #runUntilQuiet}), places faults at the crash-kill check's cut points, and reads the delivery log
 * and the tables.
 *
 * <p>Every step is judged by the model's invariants (state and transition) as it happens: a relay that
 * breaks one fails the test there, with the trace of the steps so far and the line that replays it. Same
 * test, same steps, same bytes: there is no wall clock and no randomness.
 */
public final class RelayFixture implements AutoCloseable {
    /** The name {@link #crashAt} takes for the producing service. */
    public static final String PRODUCER = Scenario.PRODUCER;

    private final RelayUnderTest relay;
    private final Scenario scenario;
    private final Databases dbs;
    private final SqlWorld world;
    private final UserCode user;
    private final boolean judged;
    private final FixtureTrace trace;
    private final List<DeliveryAttempt> deliveries = new ArrayList<>();
    private final Map<String, Integer> halfDelivered = new TreeMap<>();
    private final Map<String, CutPoint> crashes = new TreeMap<>();
    private final Set<String> failingDeliveries = new TreeSet<>();
    private final Set<String> lostAcks = new TreeSet<>();
    private RelayState current;

    /** The team's relay adapter (public no-argument constructor), one instance per poller. */
    public static FixtureBuilder forAdapter(Class<? extends RelayAdapter> adapter) {
        JUnitVersion.require();
        java.lang.reflect.Constructor<? extends RelayAdapter> ctor;
        try {
            ctor = adapter.getConstructor();
            OwnerFencedTokens.around(ctor.newInstance()); // fail here, with one line, rather than in the middle of a test
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException(adapter.getName() + " needs a public no-argument constructor that succeeds: "
                    + (e.getCause() != null ? e.getCause() : e));
        }
        RelayAdapter.missing(adapter).ifPresent(m -> {
            throw new IllegalArgumentException(m);
        });
        // the spec names the class and where it was loaded from, so a replay line can load it again
        RelaySpec spec = new RelaySpec.AdapterClass(adapter.getName(), FixtureTrace.codeSource(adapter).orElse(null));
        return new FixtureBuilder(new RelayUnderTest(spec, adapter.getName(), true, SqlShape.CORRECT, () -> {
            try {
                return new ClockGuardedAdapter(ctor.newInstance());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot instantiate " + adapter.getName() + ": " + e.getCause(), e);
            }
        }));
    }

    /**
     * The team's relay file ({@code relaycheck sql template}): its statements and its {@code -- option:} declarations.
     * An IllegalArgumentException with one line for a file that is missing or wrong.
     */
    public static FixtureBuilder forRelayFile(java.nio.file.Path file) {
        return new FixtureBuilder(new RelaySpec.SqlFile(file).resolve());
    }

    /** relaycheck's reference SQL relay ({@code relaycheck sql template}). */
    public static FixtureBuilder forReference() {
        JUnitVersion.require();
        return new FixtureBuilder(RelayUnderTest.of(SqlVariant.CORRECT, ClaimForm.SKIP_LOCKED));
    }

    /** The shipped SQL relay with one of the catalogue's mistakes (a negative control; ids: {@code relaycheck variants}). */
    public static FixtureBuilder forCatalogueMistake(String catalogueId) {
        JUnitVersion.require();
        SqlVariant v = SqlVariant.byId(catalogueId).filter(x -> !x.isCorrect())
                .orElseThrow(() -> new IllegalArgumentException("unknown catalogue mistake '" + catalogueId + "'"));
        return new FixtureBuilder(RelayUnderTest.of(v, ClaimForm.SKIP_LOCKED));
    }

    RelayFixture(RelayUnderTest relay, List<String> pollers, Map<String, Integer> stock, List<Seeding.Row> committed,
                 List<Event> toProduce, int batch, int leaseTicks, List<String> outboxDdl, List<String> consumerDdl, UserCode user,
                 boolean judged) {
        this.relay = relay;
        this.judged = judged;
        this.user = user;
        Scenario.Builder b = Scenario.builder("fixture").pollers(pollers.toArray(String[]::new))
                .batch(batch).leaseTicks(leaseTicks).producedDuringRun(true);
        stock.forEach(b::stock);
        committed.forEach(r -> b.event(r.event()));
        toProduce.forEach(b::event);
        this.scenario = b.build();
        this.dbs = Databases.separateInMemory();
        this.trace = new FixtureTrace(relay.id(), scenario);
        try {
            Schema.create(dbs, relay.newAdapter());
            Seeding.userTables(dbs, outboxDdl, consumerDdl);
            this.world = new SqlWorld(relay, scenario, dbs, user);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set up the fixture's databases: " + e.getMessage(), e);
        }
        world.reset();
        new Seeding(world, dbs, relay, user, leaseTicks, trace).load(committed);
        current = world.snapshot();
        trace.started(current);
    }

    // ------------------------------------------------------------------ driving

    /** The service commits its next declared event ({@link FixtureBuilder#toProduce}): business write and outbox row. */
    public RelayFixture produce() {
        Event e = nextToProduce();
        do {
            Action a = record(world.apply(new Step.Produce(e.id())));
            if (crashes.containsKey(PRODUCER) && crashes.get(PRODUCER).matches(a.outcome())) {
                crashes.remove(PRODUCER);
                if (world.producer().state().businessOnly()) {
                    record(world.apply(new Step.ProduceFails(e.id()))); // the service died between its commits
                }
                return this;
            }
        } while (world.producer().state().businessOnly());
        return this;
    }

    /**
     * The service commits its next event, and the statement that inserts the outbox row fails: the
     * transaction it belongs to rolls back (with a one-transaction producer, the business write too).
     */
    public RelayFixture produceFailingAtOutboxInsert() {
        Event e = nextToProduce();
        if (!relay.shape().producerInOneTransaction() && !world.producer().state().businessOnly()) {
            record(world.apply(new Step.Produce(e.id()))); // a split producer commits the business row first
        }
        record(world.apply(new Step.ProduceFails(e.id())));
        return this;
    }

    /**
     * One poll of {@code poller}: it claims, then delivers and acknowledges each row it got (or does what an
     * armed fault makes it do). Returns the delivery attempts it made.
     */
    public List<DeliveryAttempt> runOnce(String poller) {
        int from = deliveries.size();
        poll(poller);
        return List.copyOf(deliveries.subList(from, deliveries.size()));
    }

    /** Polls every poller in turn until a whole round claims nothing; the clock does not move. */
    public List<DeliveryAttempt> drain() {
        int from = deliveries.size();
        int bound = (scenario.events().size() + 1) * scenario.pollers().size() * 4;
        for (int round = 0; ; round++) {
            boolean claimed = false;
            for (String p : scenario.pollers()) {
                claimed |= poll(p);
            }
            if (!claimed) {
                return List.copyOf(deliveries.subList(from, deliveries.size()));
            }
            if (round > bound) {
                throw trace.failure("drain did not settle", "the pollers still claimed rows after " + bound + " rounds");
            }
        }
    }

    /**
     * Drains, moves the clock one tick when nobody can claim anything, and repeats until every committed event is
     * DELIVERED with its effect applied once. A relay that never gets there (a row stuck under a lease that
     * never runs out, an effect lost) fails the test as {@code EVENTUAL_DELIVERY}, after the clock has moved
     * past every lease several times over.
     */
    public List<DeliveryAttempt> runUntilQuiet() {
        int from = deliveries.size();
        int maxTicks = (scenario.leaseTicks() + 1) * (scenario.events().size() + 2);
        for (int t = 0; ; t++) {
            drain();
            if (Invariants.isComplete(producedSoFar(), current)) {
                return List.copyOf(deliveries.subList(from, deliveries.size()));
            }
            if (t >= maxTicks) {
                throw trace.violation(new Violation(Invariant.EVENTUAL_DELIVERY, "not quiet after " + t + " ticks of fault-free "
                        + "polling: " + Invariants.whyIncomplete(producedSoFar(), current)));
            }
            tick();
        }
    }

    /** The logical clock moves one tick (leases run out by ticks). */
    public RelayFixture tick() {
        record(world.apply(new Step.Tick()));
        return this;
    }

    public RelayFixture tick(int ticks) {
        for (int i = 0; i < ticks; i++) {
            tick();
        }
        return this;
    }

    // ------------------------------------------------------------------ faults, named by the crash-kill cut points

    /**
     * Arms a crash: the next time {@code actor} (a poller, or {@link #PRODUCER}) commits at {@code cut}, it dies
     * right after that commit (its connections drop, its memory is gone; a poller's leases stay until they run
     * out). The same cut points as the crash-kill check, which kills a real process there.
     */
    public RelayFixture crashAt(String actor, CutPoint cut) {
        if (actor.equals(PRODUCER) != (cut == CutPoint.AFTER_PRODUCER_COMMIT)) {
            throw new IllegalArgumentException(cut.id() + " is a " + (cut == CutPoint.AFTER_PRODUCER_COMMIT ? "producer's" : "poller's")
                    + " commit, not " + actor + "'s");
        }
        requireActor(actor);
        crashes.put(actor, cut);
        return this;
    }

    /** The next consumer transaction of {@code poller} fails before its commit; the poller then releases the row. */
    public RelayFixture failNextDelivery(String poller) {
        requireActor(poller);
        failingDeliveries.add(poller);
        return this;
    }

    /** The next acknowledgement of {@code poller} is lost (its UPDATE rolls back); the poller gives up its batch. */
    public RelayFixture loseNextAck(String poller) {
        requireActor(poller);
        lostAcks.add(poller);
        return this;
    }

    // ------------------------------------------------------------------ reading

    /** Every delivery attempt so far, one entry each, in order. */
    public List<DeliveryAttempt> deliveries() {
        return List.copyOf(deliveries);
    }

    public List<DeliveryAttempt> deliveriesOf(String eventId) {
        return deliveries.stream().filter(d -> d.eventId().equals(eventId)).toList();
    }

    /** The outbox row of an event as relaycheck reads it through the relay's snapshot (status, lease, token). */
    public OutboxRow row(String eventId) {
        return current.row(eventId).orElseThrow(() -> new IllegalArgumentException("no outbox row for " + eventId));
    }

    public boolean hasRow(String eventId) {
        return current.row(eventId).isPresent();
    }

    /** Events whose business write committed. */
    public java.util.SortedSet<String> businessWrites() {
        return java.util.Collections.unmodifiableSortedSet(new TreeSet<>(current.businessWrites()));
    }

    /** How often the consumer applied the event's effect (relaycheck's ledger). */
    public int effectsApplied(String eventId) {
        return current.consumer().effectCount(eventId);
    }

    public int clock() {
        return world.clock();
    }

    /** The whole state, as the model sees it. */
    public RelayState state() {
        return current;
    }

    /** Runs a query of the test's own on the service database (relaycheck rolls back afterwards). */
    public <T> T onServiceDatabase(SqlFunction<T> query) {
        return query(dbs, true, query);
    }

    /** Runs a query of the test's own on the consumer's database (relaycheck rolls back afterwards). */
    public <T> T onConsumerDatabase(SqlFunction<T> query) {
        return query(dbs, false, query);
    }

    /** A query on a connection the fixture owns. */
    @FunctionalInterface
    public interface SqlFunction<T> {
        T apply(Connection c) throws SQLException;
    }

    // ------------------------------------------------------------------ assertions with the trace and the replay line

    /** Fails, with the trace and the replay line, unless {@code holds}. */
    public RelayFixture verify(String claim, boolean holds) {
        if (!holds) {
            throw trace.failure("expected " + claim, "it does not hold");
        }
        return this;
    }

    /** Each event is DELIVERED with its effect applied exactly once. */
    public RelayFixture assertDelivered(String... eventIds) {
        for (String id : eventIds) {
            verify(id + " DELIVERED with its effect applied once (row " + current.row(id).map(Object::toString).orElse("absent")
                    + ", effects " + effectsApplied(id) + ")", current.row(id).map(r -> r.status() == RowStatus.DELIVERED).orElse(false)
                    && effectsApplied(id) == 1);
        }
        return this;
    }

    /** Each event's row is still PENDING. */
    public RelayFixture assertPending(String... eventIds) {
        for (String id : eventIds) {
            verify(id + " still PENDING (row " + current.row(id).map(Object::toString).orElse("absent") + ")",
                    current.row(id).map(OutboxRow::isPending).orElse(false));
        }
        return this;
    }

    /** Neither the business write nor the outbox row of the event committed. */
    public RelayFixture assertNothingCommitted(String eventId) {
        return verify("neither a business write nor an outbox row for " + eventId + " (business write "
                + current.businessWrites().contains(eventId) + ", row " + current.row(eventId).map(Object::toString).orElse("absent") + ")",
                !current.businessWrites().contains(eventId) && current.row(eventId).isEmpty());
    }

    /** The trace so far, as the failure message shows it. */
    public String trace() {
        return trace.render();
    }

    @Override
    public void close() {
        trace.writeReport(current);
        world.close();
        try {
            dbs.shutdown();
        } catch (SQLException ignored) {
            // in-memory databases of a finished test; nothing to keep
        }
    }

    // ------------------------------------------------------------------ inside

    /** One poll; true when the claim granted anything. */
    private boolean poll(String poller) {
        requireActor(poller);
        SqlPoller p = world.poller(poller);
        boolean claimed = false;
        do {
            Action a = act(p);
            if (a.outcome() instanceof Outcome.Claimed c) {
                if (c.grants().isEmpty()) {
                    return claimed;
                }
                claimed = true;
            }
            CutPoint cut = crashes.get(poller);
            if (cut != null && cut.matches(a.outcome())) {
                crashes.remove(poller);
                record(world.apply(new Step.Crash(poller)));
                return true;
            }
        } while (!p.isIdle());
        return claimed;
    }

    private Action act(SqlPoller p) {
        String name = p.name();
        Phase phase = p.state().phase();
        if (phase == Phase.TO_DELIVER && failingDeliveries.remove(name)) {
            return record(world.apply(new Step.DeliverFails(name, p.state().head().eventId())));
        }
        if (phase == Phase.TO_ACK && lostAcks.remove(name)) {
            return record(world.apply(new Step.LoseAck(name, p.state().head().eventId())));
        }
        return record(world.act(name));
    }

    /** Logs the action, judges it with the model's invariants, and fails the test at the first one broken. */
    private Action record(Action a) {
        if (a == null) {
            throw new IllegalStateException("the step cannot apply here");
        }
        RelayState after = world.snapshot();
        logDelivery(a);
        trace.step(a, current, after);
        List<Violation> broke = judged ? Invariants.check(scenario, current, a.step(), new StepResult(after, a.outcome())) : List.of();
        current = after;
        if (!broke.isEmpty()) {
            throw trace.violation(broke.get(0));
        }
        return a;
    }

    private void logDelivery(Action a) {
        if (!(a.step() instanceof Step.Deliver || a.step() instanceof Step.DeliverFails)) {
            return;
        }
        String poller = a.step().actor();
        String key = poller + "/" + eventOf(a.step());
        Integer open = halfDelivered.remove(key);
        DeliveryAttempt.Result r = resultOf(a.outcome());
        if (open != null) { // the second transaction of a split consumer completes the same attempt
            deliveries.set(open, deliveries.get(open).completed(r));
            return;
        }
        long token = a.step() instanceof Step.Deliver d ? d.token() : world.poller(poller).state().batch().isEmpty() ? -1
                : world.poller(poller).state().head().token();
        Event e = scenario.event(eventOf(a.step()));
        deliveries.add(new DeliveryAttempt(deliveries.size() + 1, poller, e.id(), token, e.payload(), r));
        if (r == DeliveryAttempt.Result.INTERRUPTED) {
            halfDelivered.put(key, deliveries.size() - 1);
        }
    }

    private static DeliveryAttempt.Result resultOf(Outcome o) {
        if (o instanceof Outcome.Applied) {
            return DeliveryAttempt.Result.APPLIED;
        }
        if (o instanceof Outcome.Duplicate) {
            return DeliveryAttempt.Result.DUPLICATE;
        }
        if (o instanceof Outcome.DeliveryRolledBack) {
            return DeliveryAttempt.Result.ROLLED_BACK;
        }
        if (o instanceof Outcome.HalfApplied) {
            return DeliveryAttempt.Result.INTERRUPTED;
        }
        throw new IllegalStateException("unexpected delivery outcome " + o);
    }

    private static String eventOf(Step s) {
        return s instanceof Step.Deliver d ? d.eventId() : ((Step.DeliverFails) s).eventId();
    }

    private Event nextToProduce() {
        int next = world.producer().state().next();
        if (next >= scenario.events().size()) {
            throw new IllegalStateException("no event left to produce: declare it with toProduce(...)");
        }
        return scenario.events().get(next);
    }

    private Scenario producedSoFar() {
        int n = world.producer().state().next() + (world.producer().state().businessOnly() ? 1 : 0);
        return scenario.toBuilder().replaceEvents(scenario.events().subList(0, Math.min(n, scenario.events().size()))).build();
    }

    private void requireActor(String actor) {
        if (!actor.equals(PRODUCER) && !scenario.pollers().contains(actor)) {
            throw new IllegalArgumentException("no poller '" + actor + "' in this fixture: " + scenario.pollers());
        }
    }

    private static <T> T query(Databases dbs, boolean outbox, SqlFunction<T> fn) {
        try (Connection c = outbox ? dbs.openOutbox() : dbs.openConsumer()) {
            try {
                return fn.apply(c);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed: " + e.getMessage(), e);
        }
    }
}
