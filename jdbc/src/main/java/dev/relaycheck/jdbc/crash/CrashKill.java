package dev.relaycheck.jdbc.crash;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelayTraits;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Pauses;
import dev.relaycheck.jdbc.world.Producer;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.Snapshots;
import dev.relaycheck.jdbc.world.SqlPoller;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * The crash-kill check. For each round: fresh databases that outlive the relay process (H2 files, or the
 * PostgreSQL server's, which keeps running); a child JVM runs the relay until it
 * reports that it stands at the cut point (right after a commit) and blocks; the parent kills it with
 * SIGKILL, checks that the commit it reported survived, then restarts a fresh relay (new connections, new
 * poller, the producer picking up where the tables say) on the same databases. It must first respect the dead
 * relay's live leases, then, once the clock passes them, finish: every event DELIVERED, one marker and one
 * effect each, stock exact, nothing lost, nothing doubled.
 */
public final class CrashKill {
    /** Exit status of a process killed by SIGKILL, as Java reports it on Linux (128 + 9). */
    public static final int SIGKILL_EXIT = 137;
    /**
     * How long the child may take to reach its cut point (a JVM start, H2 or a PostgreSQL connection, a few
     * commits: about a second when the machine is idle), and to die after SIGKILL. A loaded machine can make a
     * correct child slower than any limit, so a child past it is tried once more with twice the limit, and a
     * second miss leaves the round INCONCLUSIVE: never a failed cut point, never a caught control.
     */
    public static final Duration CHILD_LIMIT = Duration.ofSeconds(60);

    private final Path baseDir;
    private final Duration childLimit;

    public CrashKill(Path baseDir) {
        this(baseDir, CHILD_LIMIT);
    }

    /** With another limit for the child (a test's tiny one shows what a time-out becomes). */
    public CrashKill(Path baseDir, Duration childLimit) {
        this.baseDir = baseDir;
        this.childLimit = childLimit;
    }

    /**
     * One round: kill {@code variant}'s relay at the {@code nth} commit of kind {@code cut}, then recover. A
     * child that runs past its time limit is no verdict: the round runs again with twice the limit, and is
     * INCONCLUSIVE ({@link CrashRound#concluded()} false) if the child runs past that too.
     */
    public CrashRound round(RelayUnderTest relay, DbTarget db, boolean durable, CutPoint cut, int nth, int batch, String label)
            throws IOException, SQLException, InterruptedException {
        CrashRound first = attempt(relay, db, durable, cut, nth, batch, label, childLimit);
        if (first.concluded()) {
            return first;
        }
        CrashRound second = attempt(relay, db, durable, cut, nth, batch, label, childLimit.multipliedBy(2));
        return second.concluded() ? second : new CrashRound(relay, db.id(), durable, cut, nth, batch, second.at(), second.exitCode(),
                List.of(), List.of(), List.of(), List.of(), -1, first.timedOut() + "; again on a second try: " + second.timedOut()
                + " (a time limit, not the relay: rerun on a quieter machine)");
    }

    private CrashRound attempt(RelayUnderTest relay, DbTarget db, boolean durable, CutPoint cut, int nth, int batch, String label,
                               Duration limit) throws IOException, SQLException, InterruptedException {
        Path dir = baseDir.resolve(db.id()).resolve(label);
        deleteTree(dir);
        Files.createDirectories(dir);
        Scenario scenario = CrashWorld.scenario(batch);
        Databases created = db.durable(dir, durable);
        RelayTraits traits = relay.traits();
        // a deliver-and-ack relay's handler may write the effect through the outbox transaction: one database
        Databases dbs = traits.deliversAndAcks() ? new Databases(created.outboxUrl(), created.outboxUrl()) : created;
        try {
            RelayAdapter observer = relay.newAdapter();
            Schema.create(dbs, observer);
            try (Connection o = dbs.openOutbox(); Connection c = dbs.openConsumer()) {
                Schema.load(o, c, scenario, observer); // stock only: the child produces the events
            }
            Databases reopened = db.reopen(dbs);
            List<String> problems = new ArrayList<>();
            List<String> timedOut = new ArrayList<>();
            List<String> did = java.util.Collections.synchronizedList(new ArrayList<>());
            Process child = start(dir, reopened, relay, cut, nth, batch);
            String at = awaitCut(child, limit, did, problems, timedOut);
            int exit = kill(child, limit, problems, timedOut);
            if (!timedOut.isEmpty()) { // nothing after a time-out says anything about the relay
                return new CrashRound(relay, db.id(), durable, cut, nth, batch, at, exit, List.of(), List.of(), List.of(), List.of(), -1,
                        String.join("; ", timedOut));
            }
            List<Action> recovery = new ArrayList<>();
            List<String> unpromised = new ArrayList<>();
            List<SqlFinding.Observed> story = childSteps(did, at);
            int[] culprit = {-1};
            if (problems.isEmpty()) {
                if (!cut.insideTransaction()) { // inside one, nothing was reported committed (an effect outside may be)
                    checkDurable(reopened, observer, at, problems);
                }
                recover(reopened, relay, traits, observer, scenario, recovery, story, culprit, problems);
                if (relay.expectCorrect() && durable && problems.isEmpty()) {
                    checkExercised(cut, traits, at, recovery, problems);
                }
                // a broken invariant the relay does not promise is reported, never a failure
                for (String p : List.copyOf(problems)) {
                    if (traits.notPromised().stream().anyMatch(i -> p.startsWith(i.name() + ":"))) {
                        problems.remove(p);
                        unpromised.add(p);
                    }
                }
            }
            return new CrashRound(relay, db.id(), durable, cut, nth, batch, at, exit, problems,
                    recovery.stream().map(Action::toString).toList(), unpromised, story, culprit[0], "");
        } finally {
            db.release(created);
        }
    }

    /**
     * The recovery must have had something to recover: the killed claim's lease taken over after expiry,
     * the killed consumer commit's redelivery answered DUPLICATE. Otherwise the round proved nothing.
     */
    private static void checkExercised(CutPoint cut, RelayTraits traits, String at, List<Action> recovery, List<String> problems) {
        String[] parts = at.split(" ");
        String id = switch (cut) {
            case AFTER_CLAIM -> parts[4].split("/")[0];
            // a deliver-and-ack relay's consumer commit is its ack: nothing is left to redeliver
            case AFTER_CONSUMER_COMMIT -> traits.deliversAndAcks() ? null : ((Step.Deliver) Step.parse(parts[2])).eventId();
            case AFTER_HANDLER_EFFECT, BEFORE_ACK_COMMIT -> ((Step.Deliver) Step.parse(parts[2])).eventId();
            default -> null;
        };
        if (id == null) {
            return;
        }
        boolean reclaim = cut == CutPoint.AFTER_CLAIM || cut.insideTransaction(); // the killed owner's lease is taken over
        boolean seen = recovery.stream().map(Action::outcome).anyMatch(o -> reclaim
                ? o instanceof Outcome.Claimed c && c.grants().stream().anyMatch(g -> g.eventId().equals(id) && g.replacedExpired())
                : o.equals(new Outcome.Duplicate(id)));
        if (!seen) {
            problems.add("vacuous: the recovery never " + (reclaim ? "re-claimed " : "had a duplicate of ") + id);
        }
    }

    private static Process start(Path dir, Databases dbs, RelayUnderTest relay, CutPoint cut, int nth, int batch) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // a short-lived child: serial GC and C1 only start fastest; the relay's behaviour does not depend on them
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(), dbs.outboxUrl(), dbs.consumerUrl(),
                cut.id(), Integer.toString(nth), Integer.toString(batch)));
        cmd.addAll(relay.spec().args());
        return new ProcessBuilder(cmd).redirectError(dir.resolve("child.stderr").toFile()).start();
    }

    /**
     * Reads the child's lines until it reports the cut, keeping the steps it says it took in {@code did}; anything else
     * is a problem, a time-out is no verdict.
     */
    private static String awaitCut(Process child, Duration limit, List<String> did, List<String> problems, List<String> timedOut)
            throws InterruptedException {
        BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                String l = r.readLine();
                while (l != null && l.startsWith(CrashChild.DID)) {
                    did.add(l.substring(CrashChild.DID.length()));
                    l = r.readLine();
                }
                return l;
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String at = line.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (at == null || !at.startsWith("AT ")) {
                problems.add("child did not reach the cut point: " + (at == null ? "no output (see child.stderr)" : at));
            }
            return at == null ? "" : at;
        } catch (ExecutionException e) {
            problems.add("child's output could not be read: " + e.getCause());
            return "";
        } catch (TimeoutException e) {
            timedOut.add("child did not report within " + seconds(limit));
            return "";
        }
    }

    /** SIGKILL while it blocks at the cut; the exit status must say it died of the signal. */
    private static int kill(Process child, Duration limit, List<String> problems, List<String> timedOut)
            throws InterruptedException {
        if (!child.isAlive()) {
            problems.add("child exited by itself with status " + child.exitValue() + " before it could be killed");
            return child.exitValue();
        }
        child.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no H2 close, no flush
        if (!child.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            timedOut.add("child still alive " + seconds(limit) + " after SIGKILL");
            return -1;
        }
        int exit = child.exitValue();
        boolean linux = System.getProperty("os.name").toLowerCase().contains("linux");
        if (linux ? exit != SIGKILL_EXIT : exit == 0 || exit == CrashChild.EXIT_RELEASED) {
            problems.add("child exit status " + exit + ", expected " + SIGKILL_EXIT + " (killed by SIGKILL)");
        }
        return exit;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** The commit the child reported just before it was killed must be in the files. */
    private static void checkDurable(Databases dbs, RelayAdapter observer, String at, List<String> problems) throws SQLException {
        String[] parts = at.split(" ");
        Step step = Step.parse(parts[2]);
        String kind = parts[3];
        try (Connection o = dbs.openOutbox(); Connection c = dbs.openConsumer()) {
            RelayState s = Snapshots.read(o, c, observer, new Snapshots.Local(0, List.of(), new ProducerState(0, false),
                    RelayState.FaultCounts.NONE));
            String lost = switch (kind) {
                case "PRODUCED", "BUSINESS_WRITTEN" -> {
                    String id = ((Step.Produce) step).eventId();
                    boolean ok = s.businessWrites().contains(id) && (kind.equals("BUSINESS_WRITTEN") || s.row(id).isPresent());
                    yield ok ? null : "the producer's commit of " + id;
                }
                case "CLAIMED" -> {
                    String first = parts[4].split("/")[0];
                    long token = Long.parseLong(parts[4].split("/t")[1]);
                    Optional<OutboxRow> row = s.row(first);
                    yield row.isPresent() && row.get().currentToken() == token ? null : "the claim of " + first + " (t" + token + ")";
                }
                case "APPLIED", "HALF_APPLIED" -> {
                    String id = ((Step.Deliver) step).eventId();
                    boolean marker = s.consumer().hasMarkerFor(id);
                    boolean effect = s.consumer().effectCount(id) > 0;
                    boolean ok = kind.equals("APPLIED") ? marker && effect : at.endsWith(" marker") ? marker : effect;
                    yield ok ? null : "the consumer's commit of " + id;
                }
                case "ACKED" -> {
                    String id = ((Step.Ack) step).eventId();
                    yield s.row(id).map(r -> !r.isPending()).orElse(false) ? null : "the acknowledgement of " + id;
                }
                default -> "an unrecognised commit " + kind;
            };
            if (lost != null) {
                problems.add("LOST COMMIT: " + lost + " was reported committed before SIGKILL and is not in the database");
            }
        }
    }

    /**
     * The killed child's steps as the report draws them: each step it said it took (no state: nobody could read the
     * tables between its commits), the one it stood at when killed.
     */
    private static List<SqlFinding.Observed> childSteps(List<String> did, String at) {
        List<SqlFinding.Observed> out = new ArrayList<>();
        for (String d : List.copyOf(did)) {
            String[] f = d.split(" ", 3);
            out.add(new SqlFinding.Observed(Step.parse(f[0]), f.length > 2 ? f[2] : "", f.length > 1 ? f[1] : "", null, null, "child"));
        }
        String[] f = at.split(" ", 4); // AT <cut> <step> <what>
        if (f.length == 4) {
            boolean inside = f[3].startsWith("INSIDE ");
            out.add(new SqlFinding.Observed(Step.parse(f[2]), inside ? "killed inside its transaction, " + f[3].substring(7)
                    .toLowerCase(java.util.Locale.ROOT).replace('_', ' ') : f[3] + ", then killed", inside ? "KILLED" : f[3].split(" ")[0],
                    null, null, "child"));
        }
        return out;
    }

    /**
     * A fresh relay on the same files: the producer resumes after the last business row; the poller first
     * runs at the dead relay's time (its live leases must be left alone), then after they expired. Each step goes to
     * {@code log} and, with the state read back around it, to {@code story}, which starts with the kill; {@code
     * culprit} gets the index in {@code story} of the first step that broke a promised invariant.
     */
    private static void recover(Databases dbs, RelayUnderTest relay, RelayTraits traits, RelayAdapter observer, Scenario scenario,
                                List<Action> log, List<SqlFinding.Observed> story, int[] culprit, List<String> problems)
            throws SQLException {
        try (Connection producerConnection = dbs.openOutbox(); Connection o = dbs.openOutbox(); Connection c = dbs.openConsumer();
             SqlPoller poller = new SqlPoller(CrashWorld.RECOVERY_POLLER, relay, dbs, scenario.batch(), scenario.leaseTicks(), Pauses.NONE)) {
            RelayState before = snapshot(o, c, observer, 0);
            story.add(new SqlFinding.Observed(new Step.Crash(CrashWorld.CHILD_POLLER), "killed by SIGKILL; the tables as it left them",
                    "CRASHED", null, before, "kill"));
            Producer producer = new Producer(relay.shape(), relay.newAdapter(), scenario.events(), producerConnection,
                    new ProducerState(before.businessWrites().size(), false));
            while (!producer.finished()) {
                Action a = producer.produce();
                log.add(a);
                RelayState after = snapshot(o, c, observer, 0);
                story.add(SqlFinding.Observed.of(a, before, after, "recovery"));
                before = after;
            }
            for (int now : new int[]{0, scenario.leaseTicks()}) {
                RelayState s = snapshot(o, c, observer, now);
                if (now > 0) {
                    story.add(new SqlFinding.Observed(new Step.Tick(), "clock " + now + ": the dead relay's leases expired", "TICKED",
                            before, s, "recovery"));
                }
                for (int step = 0; step < 200; step++) {
                    Action a = poller.runNext(now);
                    log.add(a);
                    RelayState after = snapshot(o, c, observer, now);
                    story.add(SqlFinding.Observed.of(a, s, after, "recovery"));
                    List<Violation> broke = Invariants.checkTransition(traits.tokens(), s, a.step(), new StepResult(after, a.outcome()));
                    for (Violation v : broke) {
                        problems.add(v.invariant() + ": " + v.detail());
                    }
                    if (culprit[0] < 0 && !traits.failing(broke).isEmpty()) {
                        culprit[0] = story.size() - 1;
                    }
                    s = after;
                    before = after;
                    if (a.outcome() instanceof Outcome.Claimed cl && cl.grants().isEmpty()) {
                        break;
                    }
                }
            }
            RelayState end = Snapshots.read(o, c, observer, new Snapshots.Local(scenario.leaseTicks(), List.of(poller.state()),
                    producer.state(), RelayState.FaultCounts.NONE));
            for (Violation v : Invariants.checkState(scenario, end)) {
                problems.add(v.invariant() + ": " + v.detail());
            }
            for (String id : end.businessWrites()) {
                if (end.consumer().markerCountFor(id) > 1) { // fewer than one is MARKER_IFF_EFFECT's or NO_LOST_EVENT's
                    problems.add("EFFECT_AT_MOST_ONCE: " + id + " has " + end.consumer().markerCountFor(id)
                            + " applied_event markers: a redelivery was not recognised");
                }
            }
            if (!traits.complete(scenario, end)) {
                problems.add("EVENTUAL_DELIVERY: after recovery " + Invariants.whyIncomplete(scenario, end));
            }
        }
    }

    private static RelayState snapshot(Connection o, Connection c, RelayAdapter observer, int clock) {
        return Snapshots.read(o, c, observer, new Snapshots.Local(clock, List.of(PollerState.IDLE), new ProducerState(0, false),
                RelayState.FaultCounts.NONE));
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
