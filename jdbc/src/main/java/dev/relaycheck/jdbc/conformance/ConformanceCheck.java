package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.jdbc.result.SqlReplayLine;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RandomSchedules;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Witness;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * SQL conformance over seeded random schedules: the explorer's random walk of the CORRECT model
 * ({@code RandomSchedules.walk}, seeds {@code SplitMix64.derive(baseSeed, i)}) drives the model and the SQL
 * relay of one variant side by side on every reference scenario but soak. The correct SQL must agree on
 * every step of every schedule, reach every witness and heal; a broken SQL variant must diverge or break
 * an invariant.
 */
public final class ConformanceCheck {
    /** Schedule length, as in the model's own random-schedule property test. */
    public static final int SCHEDULE_LENGTH = 60;

    private ConformanceCheck() {
    }

    /**
     * What one variant's run found.
     *
     * @param schedules      schedules driven
     * @param steps          SQL steps taken, healing included
     * @param failures       schedules that diverged or broke an invariant
     * @param firstFailure   the first of them, preferring one that broke an invariant (null: none)
     * @param witnesses      interesting outcomes the SQL relay reached
     * @param outcomeKinds   SQL steps per outcome kind: what the comparison actually exercised
     */
    public record VariantResult(RelayUnderTest relay, DbTarget db, int schedules, long steps, int failures, ScheduleResult firstFailure,
                                Set<Witness> witnesses, SortedMap<String, Integer> outcomeKinds, long millis,
                                ScheduleResult unpromised) {

        /** SQL steps per second of wall time (each step: the relay's transaction and a snapshot of both databases). */
        public long stepsPerSecond() {
            return millis == 0 ? steps * 1000 : steps * 1000 / millis;
        }

        /** The command that replays the first failure step by step, or null when nothing failed. */
        public String replayLine() {
            if (firstFailure == null) {
                return null;
            }
            return SqlReplayLine.of(relay, db) + " --scenario " + firstFailure.scenario() + " --walk-seed " + firstFailure.seed();
        }

        /** The first failure as the report draws it (empty when nothing failed). */
        public Optional<SqlFinding> finding() {
            ScheduleResult f = firstFailure;
            if (f == null || f.observed().isEmpty()) {
                return Optional.empty();
            }
            List<String> pollers = scenarios().stream().filter(s -> s.name().equals(f.scenario())).findFirst()
                    .map(Scenario::pollers).orElse(List.of());
            String title = f.violation() != null ? f.violation().invariant().name() : "diverged from the model";
            String detail = f.violation() != null ? f.violation().detail() : f.divergence().summary();
            return Optional.of(new SqlFinding(SqlCheckResult.CONFORMANCE, relay.id(), db.id(), title, detail, pollers, List.of(), f.observed(),
                    f.culprit(), "scenario " + f.scenario() + ", walk seed " + f.seed() + ": the model's schedule driven through the "
                    + "SQL relay, the state read back from the tables after every step", replayLine()));
        }

        /** Correct: conformed everywhere and reached every witness it can reach. Broken: caught. */
        public boolean asExpected() {
            return relay.expectCorrect() ? failures == 0 && witnesses.containsAll(expectedWitnesses(relay)) : failures > 0;
        }

        public String verdict() {
            if (relay.expectCorrect()) {
                return asExpected() ? "PASS" : "FAILED";
            }
            return asExpected() ? "CAUGHT" : "ESCAPED";
        }

        /** One line naming the invariant (or the divergence) and where to replay it. */
        public String detail() {
            if (firstFailure == null) {
                if (relay.expectCorrect()) {
                    Set<Witness> missing = expectedWitnesses(relay);
                    missing.removeAll(witnesses);
                    return missing.isEmpty() ? schedules + " schedules, " + steps + " steps: SQL state, step and outcome equal to the model's after every step"
                            + (unpromised == null ? "" : "; not promised, seen: " + unpromised.unpromised().invariant() + " (scenario "
                            + unpromised.scenario() + " seed " + unpromised.seed() + ")")
                            : "vacuous: never reached " + missing;
                }
                return "not caught in " + schedules + " schedules";
            }
            ScheduleResult f = firstFailure;
            String where = "scenario " + f.scenario() + " seed " + f.seed();
            if (f.violation() != null) {
                return f.violation().invariant() + " (" + where + " step " + f.violationStep() + ")";
            }
            return "diverged from the model (" + where + " " + f.divergence().summary() + ")";
        }
    }

    /**
     * The witnesses a correct relay must show: every one its scenarios require that such a relay can reach.
     */
    static Set<Witness> expectedWitnesses(RelayUnderTest relay) {
        Set<Witness> w = EnumSet.noneOf(Witness.class);
        scenarios(relay).forEach(s -> w.addAll(s.requiredWitnesses()));
        w.retainAll(relay.traits().reachableWitnesses()); // a relay that delivers and acks at once absorbs no duplicate
        return w;
    }

    /**
     * The scenarios the conformance check runs: every reference scenario but soak whose hazards the SQL relay can be
     * driven through. Of the lease, settle and timing hazards: overlapping producers (commit visibility: real transactions that commit out of
     * sequence order), lease renewal (the relay's {@code renew}), an ack made mid-batch and an ack or release that
     * matched no row, a late redelivery (dedup retention), and clock skew (each poller's {@code :app_now}).
     */
    public static List<Scenario> scenarios() {
        return ReferenceScenarios.defaults().stream()
                .filter(s -> s.requiredWitnesses().stream().allMatch(SQL_WITNESSES::contains)).toList();
    }

    /**
     * The scenarios {@code relay} is run on: those of {@link #scenarios()}; renewal only for a relay that renews, the
     * outbox cleanup only for a relay with a cleanup job; a
     * relay that delivers and acks in one transaction has no separate ack or release to settle, so not the scenarios
     * about what an ack or release matched.
     */
    public static List<Scenario> scenarios(RelayUnderTest relay) {
        boolean renews = relay.newAdapter().renews();
        boolean cleansUp = relay.newAdapter().cleansUp();
        boolean settles = !relay.traits().deliversAndAcks();
        return scenarios().stream().filter(s -> renews || s.maxRenewals() == 0).filter(s -> cleansUp || !s.cleanup())
                .filter(s -> settles || s.requiredWitnesses().stream().noneMatch(SETTLE_WITNESSES::contains)).toList();
    }

    /**
     * Witnesses of what a separate ack or release matched, and of a redelivery absorbed late (a deliver-and-ack relay
     * never redelivers an applied event, and its handler's marker is not dated).
     */
    static final Set<Witness> SETTLE_WITNESSES = EnumSet.of(Witness.ACK_MID_BATCH, Witness.UNMATCHED_ACK, Witness.UNMATCHED_RELEASE,
            Witness.LATE_REDELIVERY);

    /**
     * The witnesses the SQL relay can show: those of the first scenarios, and a late commit (the producer's real
     * transactions commit out of sequence order), a renewal taken or refused, an ack mid-batch, an unmatched ack or
     * release, a redelivery absorbed by a marker older than a lease, a poller whose clock is off; and a delivered row
     * the relay's cleanup job deleted.
     */
    static final Set<Witness> SQL_WITNESSES = EnumSet.of(Witness.STALE_ACK, Witness.DUPLICATE_ABSORBED, Witness.LEASE_RECLAIMED,
            Witness.DELIVERY_RETRIED, Witness.LATE_REDELIVERY, Witness.ACK_MID_BATCH, Witness.UNMATCHED_ACK, Witness.UNMATCHED_RELEASE,
            Witness.LEASE_RENEWED, Witness.RENEWAL_REFUSED, Witness.CLOCK_SKEWED, Witness.LATE_COMMIT, Witness.ROW_CLEANED_UP);

    /**
     * Runs {@code seeds} seeds on every scenario (seed-major, so a broken variant is found early whichever
     * scenario exposes it). A run stops at the first schedule that breaks an invariant.
     */
    public static VariantResult run(RelayUnderTest relay, DbTarget db, long baseSeed, int seeds, PrintStream progress)
            throws SQLException {
        return run(relay, db, baseSeed, seeds, null, progress);
    }

    /**
     * The order schedules run in: seed-major over every scenario; with {@code first}, every seed of that scenario
     * before the others (a negative control tries the scenario shaped for its hazard first).
     */
    static List<int[]> order(List<Scenario> scenarios, int seeds, String first) {
        return order(scenarios, seeds, first, seeds);
    }

    /** The same, with {@code firstSeeds} seeds of scenario {@code first} (a hazard that walks meet rarely needs more). */
    static List<int[]> order(List<Scenario> scenarios, int seeds, String first, int firstSeeds) {
        int f = -1;
        for (int k = 0; k < scenarios.size(); k++) {
            if (scenarios.get(k).name().equals(first)) {
                f = k;
            }
        }
        List<int[]> out = new ArrayList<>();
        if (f >= 0) {
            for (int i = 0; i < Math.max(seeds, firstSeeds); i++) {
                out.add(new int[]{i, f});
            }
        }
        int most = scenarios.stream().mapToInt(sc -> seedsOf(sc, seeds)).max().orElse(seeds);
        for (int i = 0; i < most; i++) {
            for (int k = 0; k < scenarios.size(); k++) {
                if (k != f && i < seedsOf(scenarios.get(k), seeds)) {
                    out.add(new int[]{i, k});
                }
            }
        }
        return out;
    }

    /**
     * Seeds scenario {@code s} gets when the others get {@code seeds}: at least {@link #LATER_HAZARD_SEEDS} for a
     * scenario of the lease, settle and timing hazards, whose witnesses only it reaches and only on some walks (from base seed 1 a
     * redelivery more than a lease after the marker, marker-retention's LATE_REDELIVERY, first shows on walk 11;
     * unmatched-settle's on walk 5; the others within 4), so a run of fewer seeds would be vacuous there. Their walks
     * are short (one or two events), so the extra ones cost little.
     */
    public static int seedsOf(Scenario s, int seeds) {
        boolean laterHazard = s.requiredWitnesses().stream().anyMatch(w -> !ORIGINAL_WITNESSES.contains(w));
        return laterHazard ? Math.max(seeds, LATER_HAZARD_SEEDS) : seeds;
    }

    /** Seeds of each issue-20 scenario at least (see {@link #seedsOf}). */
    static final int LATER_HAZARD_SEEDS = 16;

    /** The first scenarios' witnesses, which every older scenario reaches within a few walks. */
    private static final Set<Witness> ORIGINAL_WITNESSES = EnumSet.range(Witness.STALE_ACK, Witness.DELIVERY_RETRIED);

    /** Schedules a run of {@code seeds} seeds drives for {@code relay} (no scenario tried first). */
    public static int schedules(RelayUnderTest relay, int seeds) {
        return scenarios(relay).stream().mapToInt(sc -> seedsOf(sc, seeds)).sum();
    }

    /** The same, trying scenario {@code firstScenario} (if not null) on every seed before the others. */
    public static VariantResult run(RelayUnderTest relay, DbTarget db, long baseSeed, int seeds, String firstScenario,
                                    PrintStream progress) throws SQLException {
        return run(relay, db, baseSeed, seeds, firstScenario, seeds, progress);
    }

    /** The same, with at least {@code firstSeeds} seeds of {@code firstScenario}. */
    public static VariantResult run(RelayUnderTest relay, DbTarget db, long baseSeed, int seeds, String firstScenario,
                                    int firstSeeds, PrintStream progress) throws SQLException {
        return run(relay, db, baseSeed, seeds, firstScenario, firstSeeds, progress, ConformanceShards.whole());
    }

    /**
     * The same, as {@code shards} says: the whole run; the schedules of one shard (numbered by their place in the run's
     * order), each tallied; or the merge of every shard's tallies, which gives the whole run's result. A run, whole or
     * one shard's, stops at its first broken invariant.
     */
    public static VariantResult run(RelayUnderTest relay, DbTarget db, long baseSeed, int seeds, String firstScenario,
                                    int firstSeeds, PrintStream progress, ConformanceShards shards) throws SQLException {
        String run = shards.nextRun(relay.id());
        List<Scenario> scenarios = scenarios(relay);
        List<Databases> dbs = new ArrayList<>();
        List<SqlWorld> relays = new ArrayList<>();
        List<RelayModel> models = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (Scenario sc : scenarios) {
                Databases d = db.acquire(relay.traits().deliversAndAcks());
                dbs.add(d);
                Schema.create(d, relay.newAdapter());
                relays.add(new SqlWorld(relay, sc, d));
                models.add(new RelayModel(relay.traits().modelLogic(), sc));
            }
            int schedules = 0;
            long steps = 0;
            int failures = 0;
            ScheduleResult first = null;
            ScheduleResult unpromised = null;
            Set<Witness> witnesses = EnumSet.noneOf(Witness.class);
            SortedMap<String, Integer> kinds = new TreeMap<>();
            List<int[]> order = order(scenarios, seeds, firstScenario, firstSeeds);
            for (int p = 0; p < order.size(); p++) {
                int i = order.get(p)[0];
                int k = order.get(p)[1];
                long seed = SplitMix64.derive(baseSeed, i);
                SqlWorld sqlRelay = relays.get(k);
                RelayModel model = models.get(k);
                Supplier<ScheduleResult> schedule = () -> new ScheduleConformance(sqlRelay, model,
                        ScheduleConformance.Trace.NONE).run(seed, RandomSchedules.walk(model, seed, SCHEDULE_LENGTH));
                ScheduleResult r = null;
                ConformanceShards.Tally t;
                if (shards.merging()) {
                    t = shards.recorded(run, p);
                } else if (shards.runs(p)) {
                    r = schedule.get();
                    if (!r.clean() && failures == 0 && OwnClock.mayReadOwnClock(relay)) {
                        // its first failure counts only if it is the relay's, not its own clock's (OwnClock)
                        OwnClock.requireRepeatable(relay, r, schedule);
                    }
                    t = ConformanceShards.Tally.of(p, r);
                    shards.record(run, t);
                } else {
                    continue;
                }
                schedules++;
                steps += t.steps();
                witnesses.addAll(t.witnesses());
                t.outcomeKinds().forEach((kind, n) -> kinds.merge(kind, n, Integer::sum));
                boolean firstFailure = !t.clean() && (first == null || (first.violation() == null && t.violation()));
                if ((unpromised == null && t.unpromised()) || firstFailure) {
                    r = r != null ? r : again(schedule.get(), t);
                }
                if (unpromised == null && t.unpromised()) {
                    unpromised = r;
                }
                if (!t.clean()) {
                    failures++;
                    if (firstFailure) {
                        first = r;
                    }
                    if (t.violation()) { // the first broken invariant is the verdict; its replay line shows it
                        break;
                    }
                }
                if (progress != null && schedules % (100 * scenarios.size()) == 0) {
                    progress.println("  " + relay.id() + " on " + db.id() + ": " + schedules + "/" + schedules(relay, seeds)
                            + " schedules, " + failures + " failing");
                }
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (shards.merging()) {
                millis = shards.mergedMillis(run);
            } else {
                shards.recordTime(run, millis);
            }
            return new VariantResult(relay, db, schedules, steps, failures, first, witnesses, kinds, millis, unpromised);
        } finally {
            relays.forEach(SqlWorld::close);
            for (Databases d : dbs) {
                db.release(d);
            }
        }
    }

    /** A schedule a shard ran, run again here for its full result: it must end as the shard saw it end. */
    private static ScheduleResult again(ScheduleResult r, ConformanceShards.Tally t) {
        if (r.clean() != t.clean() || (r.violation() != null) != t.violation() || (r.unpromised() != null) != t.unpromised()) {
            throw new IllegalStateException("schedule #" + t.position() + " (" + r.scenario() + ", walk seed " + r.seed() + ") ended "
                    + (t.clean() ? "clean" : "failing") + " in shard " + t.shard() + " and " + (r.clean() ? "clean" : "failing")
                    + " here: " + r.summary());
        }
        return r;
    }

    /**
     * Re-runs one schedule and prints every step on both sides, judged by the invariants {@code judged} (every one, or
     * a property check's alone).
     */
    public static ScheduleResult replay(RelayUnderTest relayUnderTest, DbTarget db, Scenario scenario, long seed,
                                        Set<Invariant> judged, PrintStream out) throws SQLException {
        Databases d = db.acquire(relayUnderTest.traits().deliversAndAcks());
        RelayModel model = new RelayModel(relayUnderTest.traits().modelLogic(), scenario);
        List<Step> schedule = RandomSchedules.walk(model, seed, SCHEDULE_LENGTH);
        Schema.create(d, relayUnderTest.newAdapter());
        try (SqlWorld relay = new SqlWorld(relayUnderTest, scenario, d)) {
            ScheduleConformance.Trace trace = (n, phase, step, outcome, sql, diff) -> {
                String modelSide = step == null ? "" : "model " + step + " -> " + outcome + " | ";
                out.println(String.format("%3d %-8s %ssql %s", n, phase.startsWith("healing") ? "heal" : "", modelSide,
                        sql == null ? "(could not take the step)" : sql));
                diff.forEach(d1 -> out.println("      differs: " + d1));
            };
            ScheduleResult r = new ScheduleConformance(relay, model, trace).judging(judged).run(seed, schedule);
            out.println(r.summary());
            return r;
        } finally {
            db.release(d);
        }
    }
}
