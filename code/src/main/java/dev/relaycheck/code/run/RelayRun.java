package dev.relaycheck.code.run;

import dev.relaycheck.code.ConsumerFailure;
import dev.relaycheck.code.Instance;
import dev.relaycheck.code.NewEvent;
import dev.relaycheck.code.Poller;
import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.control.Actor;
import dev.relaycheck.code.control.Conductor;
import dev.relaycheck.code.control.ControlledClock;
import dev.relaycheck.code.control.LockWaits;
import dev.relaycheck.code.control.Participant;
import dev.relaycheck.code.control.Permit;
import dev.relaycheck.code.control.Point;
import dev.relaycheck.code.control.ScheduledDataSource;
import dev.relaycheck.code.control.ScheduledDataSource.InstanceCrashed;
import dev.relaycheck.code.judge.CodeRunJudge;
import dev.relaycheck.code.observe.OutboxReader;
import dev.relaycheck.code.observe.Row;
import dev.relaycheck.code.observe.Snapshot;
import dev.relaycheck.code.schedule.Choice;
import dev.relaycheck.code.schedule.Strategy;
import dev.relaycheck.jdbc.adapter.WallClock;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.Dialect;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * One run of a relay's own code: a fresh database with the team's schema, the producer and the relay instances each
 * on a thread of its own, and a schedule that lets one of them go at a time. The faulty phase takes the strategy's
 * choices (actors, clock moves, faults) for a bounded number of steps; the healing phase then lets every actor
 * finish, every instance poll in turn and the clock pass every lease, without faults, until every event is applied
 * or nothing moves any more. The judge reads the committed outbox and effects after every step.
 */
public final class RelayRun {
    public static final String PRODUCER = "producer";
    /** The name and instance id of the team's cleanup job, where its factory has one. */
    public static final String CLEANUP = "cleanup";

    private final RelayFactory factory;
    private final DbTarget db;
    private final Settings settings;
    private final Strategy strategy;
    private final long seed;

    private Databases dbs;
    private Connection observer;
    private Conductor conductor;
    private final ControlledClock clock = new ControlledClock(OutboxReader.CLOCK_START);
    private OutboxReader reader;
    private CodeRunJudge judge;
    private Snapshot snapshot = Snapshot.EMPTY;
    private final List<Participant> participants = new ArrayList<>();
    private Participant cleanupJob;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Poller> pollers = new ArrayList<>();
    private final SortedMap<String, Integer> recorded = new TreeMap<>();
    private final Map<String, String> labels = new TreeMap<>();
    private final List<String> produced = new ArrayList<>();
    private final Map<String, String> results = java.util.Collections.synchronizedMap(new TreeMap<>());
    private final List<TraceLine> trace = new ArrayList<>();
    private final List<String> schedule = new ArrayList<>();
    /** The event the producer writes now, or wrote last: the rows a producer's step adds are its. */
    private volatile String producing;
    /** The last event whose rows the outbox shows: a restarted producer goes on after it. */
    private int writtenEvents;
    private volatile String refusal;
    private volatile String codeError;
    private String unfinished;
    private int step;
    private int ticks;
    private int crashes;
    private int replacements;
    private int lostCommits;
    private int consumerFaults;
    private int healingSteps;
    /** What the last poll of the healing phase that threw said, by whom. */
    private String healingPollFailure;
    /**
     * The actors whose statement waited on a lock when the last step settled: blocked inside a statement, commit or
     * rollback relaycheck let go, not a thread parked between statements (an idle pool thread).
     */
    private List<Actor> lastBlocked = List.of();
    /** The kind of point each actor was last let go at: a blocked actor let go at a statement waits inside it. */
    private final Map<Actor, Point.Kind> letGoAt = new java.util.IdentityHashMap<>();

    public RelayRun(RelayFactory factory, DbTarget db, Settings settings, Strategy strategy, long seed) {
        this.factory = factory;
        this.db = db;
        this.settings = settings;
        this.strategy = strategy;
        this.seed = seed;
    }

    /**
     * Runs it. A relay that reads a wall clock, or a factory that throws while relaycheck sets up the run, ends it
     * with {@link Refused}: nothing about the relay can be judged then.
     */
    public RunResult run() throws SQLException {
        dbs = db.acquire(true);
        try {
            observer = DriverManager.getConnection(dbs.outboxUrl());
            try {
                factory.createSchema(new PlainDataSource(dbs.outboxUrl()));
            } catch (Exception e) {
                throw new Refused(factory.getClass().getName() + ".createSchema threw " + describe(e));
            }
            reader = new OutboxReader(factory.outboxQuery(), factory.effectsQuery());
            LockWaits waits = db.dialect() == Dialect.H2 ? LockWaits.h2(observer) : LockWaits.postgres(observer);
            conductor = new Conductor(waits, settings.bound().toNanos());
            judge = new CodeRunJudge(world(), factory.notPromised());
            startProducer(PRODUCER, 1);
            for (int i = 1; i <= settings.instances(); i++) {
                startInstance("relay-" + i, "relay-" + i);
            }
            startCleanup();
            if (!settle()) {
                return result();
            }
            snapshot = read();
            faultyPhase();
            if (unfinished == null) {
                healingPhase();
            }
            if (unfinished == null) {
                judge.end(snapshot, produced, healingSteps, healingPollFailure);
            }
            return result();
        } finally {
            stop();
        }
    }

    /** The run could not judge the relay: one line says why. */
    public static final class Refused extends RuntimeException {
        public Refused(String message) {
            super(message);
        }
    }

    private RunResult result() {
        return new RunResult(strategy.name(), seed, String.join(" ", schedule), trace, judge == null ? List.of() : judge.findings(),
                judge == null ? List.of() : judge.notPromised(), judge == null ? java.util.EnumSet.noneOf(dev.relaycheck.code.judge.Reached.class)
                : judge.reached(), unfinished);
    }

    private void faultyPhase() throws SQLException {
        for (int i = 0; i < settings.steps() && unfinished == null; i++) {
            List<Choice> enabled = enabled();
            if (enabled.isEmpty() || allDone() && enabled.stream().allMatch(c -> c instanceof Choice.Tick || idleGo(c))) {
                return;
            }
            Choice c = strategy.pick(enabled, i);
            if (c == null) {
                return;
            }
            schedule.add(c.toString());
            take(c, "faulty");
        }
    }

    /**
     * Without faults: every actor that is in the middle of something goes on first (in the listed order), then the
     * producer, then each live instance polls in turn; after a round of polls that changed nothing the clock moves
     * to the next lease boundary, and after three such rounds in a row the relay has had its chance.
     */
    private void healingPhase() throws SQLException {
        TreeSet<String> polledThisRound = new TreeSet<>();
        Snapshot roundStart = snapshot;
        int quietTicks = 0;
        while (unfinished == null && healingSteps < settings.healingSteps()) {
            List<Conductor.Waiting> waiting = conductor.waiting();
            Optional<Conductor.Waiting> busy = waiting.stream().filter(w -> w.point().kind() != Point.Kind.POLL).findFirst();
            Choice next;
            if (busy.isPresent()) {
                next = new Choice.Go(busy.get().actor().label());
            } else {
                if (allDone()) {
                    return;
                }
                Optional<Conductor.Waiting> toPoll = waiting.stream()
                        .filter(w -> !w.actor().participant().crashed() && !polledThisRound.contains(w.actor().label())).findFirst();
                if (toPoll.isPresent()) {
                    polledThisRound.add(toPoll.get().actor().label());
                    next = new Choice.Go(toPoll.get().actor().label());
                } else {
                    boolean moved = !snapshot.equals(roundStart);
                    polledThisRound.clear();
                    roundStart = snapshot;
                    if (moved) {
                        quietTicks = 0;
                        continue;
                    }
                    if (++quietTicks > 3) {
                        return;
                    }
                    next = new Choice.Tick();
                }
            }
            healingSteps++;
            take(next, "healing");
        }
    }

    /** Every event written, and each applied and done with (delivered, or its row gone). */
    private boolean allDone() {
        if (writtenEvents < settings.events()) {
            return false;
        }
        for (String id : produced) {
            if (snapshot.effects(id) == 0 || snapshot.row(id).map(r -> !r.delivered()).orElse(false)) {
                return false;
            }
        }
        return true;
    }

    private boolean idleGo(Choice c) {
        return c instanceof Choice.Go g && conductor.waiting().stream()
                .anyMatch(w -> w.actor().label().equals(g.actor()) && w.point().kind() == Point.Kind.POLL);
    }

    /** The choices in a fixed order: each waiting actor, the clock, then the faults each waiting actor can suffer. */
    private List<Choice> enabled() {
        List<Conductor.Waiting> waiting = conductor.waiting();
        List<Choice> out = new ArrayList<>();
        waiting.forEach(w -> out.add(new Choice.Go(w.actor().label())));
        if (ticks < settings.ticks() && snapshot.rows().stream().anyMatch(r -> r.leaseExpiry() != null
                && !r.delivered() && !r.leaseExpiry().plusSeconds(1).isBefore(clock.instant()))) {
            out.add(new Choice.Tick()); // time matters to a relay while a lease runs out; the healing phase moves it anyway
        }
        for (Conductor.Waiting w : waiting) {
            String a = w.actor().label();
            boolean producer = w.actor().participant().instanceId().equals(PRODUCER);
            boolean cleanup = w.actor().participant() == cleanupJob; // a purge that dies is rolled back: nothing to see
            if (crashes < settings.crashes() && !cleanup && !(producer && w.point().kind() == Point.Kind.PRODUCE)) {
                out.add(new Choice.Crash(a)); // the producer's process too, while it writes or works after its commit
            }
            if (!producer && !cleanup && settings.instanceIds() == Settings.InstanceIds.REUSED && replacements < settings.replacements()) {
                out.add(new Choice.Replace(a));
            }
            if (w.point().isCommit() && lostCommits < settings.lostCommits()) {
                out.add(new Choice.LoseCommit(a));
            }
            if (w.point().kind() == Point.Kind.DELIVER && consumerFaults < settings.consumerFaults()) {
                out.add(new Choice.FailDelivery(a));
                out.add(new Choice.LoseDelivery(a));
            }
        }
        return out;
    }

    private void take(Choice c, String phase) throws SQLException {
        step++;
        Snapshot before = snapshot;
        String point;
        Actor actor = null;
        if (c instanceof Choice.Tick) {
            ticks += phase.equals("faulty") ? 1 : 0;
            clock.moveTo(nextTick());
            point = "tick to " + show(clock.instant());
        } else if (c instanceof Choice.Go g) {
            Conductor.Waiting w = waitingActor(g.actor());
            actor = w.actor();
            point = w.point().toString();
            if (w.point().kind() == Point.Kind.DELIVER) {
                judge.delivering(before, outboxId(w.point().what()));
            }
            results.remove(actor.label());
            letGoAt.put(actor, w.point().kind());
            conductor.let(actor, Permit.GO);
        } else if (c instanceof Choice.Crash cr) {
            Conductor.Waiting w = waitingActor(cr.actor());
            actor = w.actor();
            Participant p = actor.participant();
            point = "CRASH at " + w.point();
            crashes++;
            judge.crashed(p.name());
            p.crash();
            conductor.waiting().stream().filter(x -> x.actor().participant() == p).forEach(x -> conductor.let(x.actor(), Permit.CRASH));
            if (p.instanceId().equals(PRODUCER)) { // the service restarts and goes on with the events it has not written
                String name = primed(p.name());
                startProducer(name, writtenEvents + 1);
                point += "; " + name + " starts";
            } else {
                boolean reuse = settings.instanceIds() == Settings.InstanceIds.REUSED;
                String name = reuse ? primed(p.name()) : "relay-" + participants.stream().filter(x -> x != cleanupJob).count();
                startInstance(name, reuse ? p.instanceId() : name);
                point += "; " + name + " starts" + (reuse ? " with the same instance id" : "");
            }
        } else if (c instanceof Choice.Replace rp) {
            Conductor.Waiting w = waitingActor(rp.actor());
            actor = w.actor();
            Participant p = actor.participant();
            replacements++;
            String name = primed(p.name());
            startInstance(name, p.instanceId());
            point = name + " starts in place of " + p.name() + ", with its instance id '" + p.instanceId() + "', while " + p.name()
                    + " goes on running";
        } else if (c instanceof Choice.LoseCommit lc) {
            Conductor.Waiting w = waitingActor(lc.actor());
            actor = w.actor();
            lostCommits++;
            point = "COMMIT (its acknowledgement lost)";
            results.remove(actor.label());
            letGoAt.put(actor, w.point().kind());
            conductor.let(actor, Permit.LOSE_COMMIT);
        } else if (c instanceof Choice.FailDelivery f) {
            Conductor.Waiting w = waitingActor(f.actor());
            actor = w.actor();
            consumerFaults++;
            point = w.point() + " (the consumer fails)";
            letGoAt.put(actor, w.point().kind());
            conductor.let(actor, Permit.FAIL_DELIVERY);
        } else if (c instanceof Choice.LoseDelivery l) {
            Conductor.Waiting w = waitingActor(l.actor());
            actor = w.actor();
            consumerFaults++;
            point = w.point() + " (applied, the acknowledgement lost)";
            judge.delivering(before, outboxId(w.point().what()));
            letGoAt.put(actor, w.point().kind());
            conductor.let(actor, Permit.LOSE_DELIVERY);
        } else {
            throw new IllegalArgumentException(String.valueOf(c));
        }
        List<Actor> wereBlocked = lastBlocked;
        if (!settle()) {
            return;
        }
        snapshot = read();
        labelNewRows(actor);
        String result = actor == null ? "" : lastBlocked.contains(actor) ? "waits for a lock another transaction holds"
                : results.getOrDefault(actor.label(), "");
        for (Actor a : wereBlocked) { // a statement that waited went on when this step freed its lock
            if (a != actor && !lastBlocked.contains(a)) {
                result += (result.isEmpty() ? "" : "; ") + a.label() + "'s waiting statement went on: "
                        + results.getOrDefault(a.label(), "done");
            }
        }
        result = relabel(result);
        point = relabel(point);
        if (phase.equals("healing") && result.startsWith("the poll threw")) {
            healingPollFailure = actor.label() + "'s " + result.substring("the ".length());
        }
        Participant p = actor == null ? null : actor.participant();
        CodeRunJudge.Who who = p == null ? new CodeRunJudge.Who("clock", "clock", "clock", 0)
                : new CodeRunJudge.Who(actor.label(), p.name(), p.instanceId(), p.polls());
        judge.step(step, who, point, result, before, snapshot, clock.instant());
        trace.add(new TraceLine(step, phase, actor == null ? "clock" : actor.label(), c.toString(), point, result,
                changes(before, snapshot), show(clock.instant())));
    }

    /** The name of an instance that starts in the place of {@code name}'s: {@code relay-1'}, or more primes if taken. */
    private String primed(String name) {
        String n = name + "'";
        while (true) {
            String taken = n;
            if (participants.stream().noneMatch(p -> p.name().equals(taken))) {
                return n;
            }
            n += "'";
        }
    }

    /** The outbox id of an event the relay names by its outbox id or by relaycheck's name for it ({@code E1}). */
    private String outboxId(String idOrName) {
        if (labels.containsKey(idOrName)) {
            return idOrName;
        }
        return labels.entrySet().stream().filter(e -> e.getValue().equals(idOrName)).map(Map.Entry::getKey).findFirst().orElse(idOrName);
    }

    private Conductor.Waiting waitingActor(String label) {
        return conductor.waiting().stream().filter(w -> w.actor().label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalStateException(label + " is not waiting"));
    }

    /** Waits for quiet; false (and the run unfinished) when an actor ran past the bound, or the relay was refused. */
    private boolean settle() throws SQLException {
        Conductor.Settled s = conductor.settle();
        lastBlocked = s instanceof Conductor.Settled.Quiet q ? q.blocked().stream().filter(this::inStatement).toList() : List.of();
        if (refusal != null) {
            throw new Refused(refusal);
        }
        if (codeError != null) {
            throw new Refused(codeError);
        }
        if (s instanceof Conductor.Settled.NoProgress np) {
            unfinished = np.running().get(0).label() + " did not reach its next statement, commit or delivery within "
                    + settings.bound().toSeconds() + " s (it loops, or waits on something relaycheck does not control):\n  "
                    + String.join("\n  ", np.stacks());
            return false;
        }
        return true;
    }

    /** Let go at a statement, commit or rollback whose outcome has not come yet. */
    private boolean inStatement(Actor a) {
        Point.Kind k = letGoAt.get(a);
        return (k == Point.Kind.STATEMENT || k == Point.Kind.COMMIT || k == Point.Kind.ROLLBACK) && !results.containsKey(a.label());
    }

    /** The next instant worth being at: a lease expiry ahead, or a second past one; else a second from now. */
    private Instant nextTick() {
        Instant now = clock.instant();
        Instant best = null;
        for (Row r : snapshot.rows()) {
            if (r.leaseExpiry() == null) {
                continue;
            }
            for (Instant cand : new Instant[]{r.leaseExpiry(), r.leaseExpiry().plusSeconds(1)}) {
                if (cand.isAfter(now) && (best == null || cand.isBefore(best))) {
                    best = cand;
                }
            }
        }
        return best != null ? best : now.plusSeconds(1);
    }

    private Snapshot read() throws SQLException {
        SortedMap<String, Integer> copy;
        synchronized (recorded) {
            copy = new TreeMap<>(recorded);
        }
        Snapshot s = byOutboxId(reader.read(observer, copy));
        for (Row r : s.rows()) {
            if (OutboxReader.offClock(r.leaseExpiry())) {
                throw new Refused("the outbox query read a lease expiry of " + r.leaseExpiry() + " for row " + r.id()
                        + ", which is not on relaycheck's clock (it started at " + OutboxReader.CLOCK_START + "): the relay reads the "
                        + "JVM's wall clock (Instant.now(), System.currentTimeMillis()) instead of the Clock it was given");
            }
        }
        return s;
    }

    /** Effects the consumer recorded under relaycheck's event names ({@code E1}), counted under their outbox ids. */
    private Snapshot byOutboxId(Snapshot s) {
        if (s.effects().keySet().stream().noneMatch(k -> !labels.containsKey(k) && labels.containsValue(k))) {
            return s;
        }
        Map<String, String> idOf = new TreeMap<>();
        labels.forEach((id, label) -> idOf.put(label, id));
        SortedMap<String, Integer> effects = new TreeMap<>();
        s.effects().forEach((k, n) -> effects.merge(labels.containsKey(k) ? k : idOf.getOrDefault(k, k), n, Integer::sum));
        return new Snapshot(s.rows(), effects);
    }

    /** Names rows that appeared: the producer's by the event it was writing, others by their id. */
    private void labelNewRows(Actor actor) {
        for (Row r : snapshot.rows()) {
            if (labels.containsKey(r.id())) {
                continue;
            }
            boolean byProducer = actor != null && actor.participant().instanceId().equals(PRODUCER) && producing != null;
            String label = byProducer ? producing : r.id();
            if (byProducer && labels.containsValue(label)) {
                label = label + "+" + r.id(); // a second row for one event
            }
            labels.put(r.id(), label);
            if (byProducer) {
                produced.add(r.id());
                writtenEvents = Math.max(writtenEvents, Integer.parseInt(producing.substring(1)));
            }
        }
    }

    /** The text with every outbox id relaycheck named written as its name ({@code E1}): the same run, the same words. */
    private String relabel(String text) {
        for (var e : labels.entrySet()) {
            if (!e.getKey().equals(e.getValue()) && text.contains(e.getKey())) {
                text = text.replace(e.getKey(), e.getValue());
            }
        }
        return text;
    }

    private String changes(Snapshot before, Snapshot after) {
        List<String> out = new ArrayList<>();
        Map<String, Row> was = before.byId();
        Map<String, Row> is = after.byId();
        TreeSet<String> ids = new TreeSet<>(judge.byLabel());
        ids.addAll(was.keySet());
        ids.addAll(is.keySet());
        for (String id : ids) {
            Row b = was.get(id);
            Row a = is.get(id);
            String l = labels.getOrDefault(id, id);
            if (b == null) {
                out.add("+" + l + " " + a.state(this::show));
            } else if (a == null) {
                out.add("-" + l + " (was " + b.state(this::show) + ")");
            } else if (!a.sameAs(b)) {
                out.add(l + " " + b.state(this::show) + "->" + a.state(this::show));
            }
        }
        List<String> applied = new ArrayList<>(after.effects().keySet());
        applied.sort(judge.byLabel());
        for (String id : applied) {
            if (after.effects(id) != before.effects(id)) {
                out.add("effect " + labels.getOrDefault(id, id) + " x" + after.effects(id));
            }
        }
        return String.join("; ", out);
    }

    /** An instant of the run's clock as seconds from its start: {@code t=30s}, {@code t=30.001s}. */
    String show(Instant i) {
        Duration d = Duration.between(OutboxReader.CLOCK_START, i);
        long ms = d.toMillis();
        return "t=" + (ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.format("%.3f", ms / 1000.0)) + "s";
    }

    private CodeRunJudge.World world() {
        return new CodeRunJudge.World() {
            @Override
            public String label(String outboxId) {
                return labels.getOrDefault(outboxId, outboxId);
            }

            @Override
            public boolean stillIn(String participant, int poll) {
                return participants.stream().anyMatch(p -> p.name().equals(participant) && p.stillIn(poll));
            }

            @Override
            public String show(Instant instant) {
                return RelayRun.this.show(instant);
            }
        };
    }

    private ScheduledDataSource.Observer observerOf() {
        return new ScheduledDataSource.Observer() {
            @Override
            public void sending(Actor actor, String sql) {
                WallClock.readBy(sql).ifPresent(f -> refusal = actor.label() + " sent a statement that reads the database's clock ("
                        + f + "): relaycheck cannot check a wall-clock relay deterministically; take the time from the Clock "
                        + "relaycheck gives the instance");
            }

            @Override
            public void did(Actor actor, String result) {
                synchronized (results) {
                    results.put(actor.label(), result);
                }
            }
        };
    }

    private Participant participant(String name, String instanceId) {
        Participant p = new Participant(name, instanceId, participants.size());
        participants.add(p);
        return p;
    }

    private DataSource dataSource(Participant p) {
        // a lock wait ends when relaycheck lets the holder go, never by H2's timeout
        String url = dbs.outboxUrl().replaceAll("LOCK_TIMEOUT=\\d+", "LOCK_TIMEOUT=600000");
        return ScheduledDataSource.of(p, conductor, () -> DriverManager.getConnection(url), observerOf());
    }

    /**
     * The service's writer thread, writing events {@code from} on; a restarted one ({@code producer'}) goes on with the
     * first event that has no row yet. A write whose commit acknowledgement relaycheck lost committed all the same.
     */
    private void startProducer(String name, int from) {
        Participant p = participant(name, PRODUCER);
        Instance producer = new Handle(p, dataSource(p));
        Thread t = new Thread(() -> {
            Actor me = conductor.current(p);
            try {
                for (int k = from; k <= settings.events(); k++) {
                    NewEvent e = new NewEvent("E" + k, "SKU-" + ((k - 1) % settings.aggregates() + 1), k, k);
                    if (p.crashed() || conductor.arrive(me, new Point(Point.Kind.PRODUCE, null, e.id())) != Permit.GO) {
                        return; // also a service whose code caught its own crash and went on
                    }
                    producing = e.id();
                    int broken = p.brokenConnections();
                    try {
                        factory.produce(producer, e);
                    } catch (InstanceCrashed stop) {
                        return;
                    } catch (Exception | Error ex) {
                        if (p.crashed()) {
                            return; // it died there, whatever the code made of it on the way out
                        }
                        if (p.brokenConnections() == broken) {
                            codeError = factory.getClass().getName() + ".produce threw " + describe(ex) + " writing " + e;
                            return;
                        }
                    }
                }
            } finally {
                conductor.finished(me);
            }
        }, "relaycheck-" + name);
        begin(p, t);
    }

    private void startInstance(String name, String instanceId) {
        Participant p = participant(name, instanceId);
        Instance handle = new Handle(p, dataSource(p));
        Thread t = new Thread(() -> {
            Actor me = conductor.current(p);
            try {
                pollUntilCrashed(p, me, factory.newInstance(handle));
            } catch (InstanceCrashed dead) {
                // it died while relaycheck built it
            } catch (Exception | Error e) {
                if (p.crashed()) {
                    return;
                }
                codeError = factory.getClass().getName() + ".newInstance threw " + describe(e) + " for " + name;
            } finally {
                conductor.finished(me);
            }
        }, "relaycheck-" + name);
        begin(p, t);
    }

    /** The team's cleanup job, an actor that never crashes; none where the factory has none. */
    private void startCleanup() {
        Participant p = participant(CLEANUP, CLEANUP);
        cleanupJob = p;
        Instance handle = new Handle(p, dataSource(p));
        Thread t = new Thread(() -> {
            Actor me = conductor.current(p);
            try {
                Poller job = factory.cleanup(handle);
                if (job != null) {
                    pollUntilCrashed(p, me, job);
                }
            } catch (Exception | Error e) {
                codeError = factory.getClass().getName() + ".cleanup threw " + describe(e);
            } finally {
                conductor.finished(me);
            }
        }, "relaycheck-" + CLEANUP);
        begin(p, t);
    }

    /**
     * Calls {@code poller} each time relaycheck lets {@code me} start a poll, until its process dies: also when the
     * relay's code caught the crash (a library that catches every Throwable around a task) and returned as usual.
     */
    private void pollUntilCrashed(Participant p, Actor me, Poller poller) {
        synchronized (pollers) {
            pollers.add(poller);
        }
        while (!p.crashed() && conductor.arrive(me, Point.poll()) == Permit.GO) {
            p.pollStarts();
            try {
                poller.poll();
            } catch (InstanceCrashed dead) {
                return;
            } catch (Exception | Error e) {
                if (p.crashed()) {
                    return;
                }
                synchronized (results) {
                    results.put(me.label(), "the poll threw " + describe(e));
                }
            } finally {
                p.pollEnds();
            }
        }
    }

    private void begin(Participant p, Thread t) {
        t.setDaemon(true); // a relay thread that never ends must not keep the JVM alive
        conductor.register(p, t);
        threads.add(t);
        t.start();
    }

    /** Ends every actor (their processes die), closes what the relays opened, and gives the database back. */
    private void stop() {
        try {
            if (conductor != null) {
                participants.forEach(Participant::crash);
                for (int i = 0; i < 3; i++) {
                    conductor.waiting().forEach(w -> conductor.let(w.actor(), Permit.CRASH));
                    for (Thread t : threads) {
                        t.join(200);
                    }
                }
            }
            synchronized (pollers) {
                pollers.forEach(RelayRun::close);
            }
            close(factory);
            if (observer != null) {
                observer.close();
            }
            db.release(dbs);
        } catch (SQLException | InterruptedException e) {
            // the next run gets a fresh database either way
        }
    }

    /** Closes what the relay built, where it can be closed: the run is over, and one that cannot close is not judged for it. */
    private static void close(Object built) {
        if (built instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception | Error e) {
                // its process died: what it does on the way out reaches the database no more
            }
        }
    }

    /** An exception in one line: its class, message and where it was thrown (the first frame outside the JDK). */
    private static String describe(Throwable e) {
        String where = java.util.Arrays.stream(e.getStackTrace()).filter(f -> !f.getClassName().startsWith("java."))
                .findFirst().map(f -> " at " + f).orElse("");
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage().lines().findFirst().orElse("")) + where
                + (e.getCause() != null && e.getCause() != e ? " (caused by " + describe(e.getCause()) + ")" : "");
    }

    /** What one instance is given. */
    private final class Handle implements Instance {
        private final Participant participant;
        private final DataSource dataSource;

        Handle(Participant participant, DataSource dataSource) {
            this.participant = participant;
            this.dataSource = dataSource;
        }

        @Override
        public DataSource dataSource() {
            return dataSource;
        }

        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public String id() {
            return participant.instanceId();
        }

        @Override
        public void deliver(String outboxId) throws Exception {
            deliver(outboxId, () -> {
                synchronized (recorded) {
                    recorded.put(outboxId, 1); // an idempotent consumer: applied once, whatever comes again
                }
            });
        }

        @Override
        public void deliver(String outboxId, ConsumerCall consumer) throws Exception {
            if (participant.crashed()) {
                throw new InstanceCrashed(participant.name());
            }
            Actor me = conductor.current(participant);
            Permit p = conductor.arrive(me, new Point(Point.Kind.DELIVER, null, outboxId));
            switch (p) {
                case GO -> consumer.run();
                case FAIL_DELIVERY -> throw new ConsumerFailure("relaycheck: the consumer failed; nothing was applied");
                case LOSE_DELIVERY -> {
                    consumer.run();
                    throw new ConsumerFailure("relaycheck: the consumer applied the event, and its acknowledgement was lost");
                }
                default -> throw new InstanceCrashed(participant.name());
            }
        }
    }
}
