package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.jdbc.Databases;
import dev.relaycheck.jdbc.DbTarget;
import dev.relaycheck.jdbc.RelayUnderTest;
import dev.relaycheck.jdbc.SqlRelay;
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
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

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
            return "./relaycheck sql replay " + String.join(" ", quoted(relay.spec().args())) + " --db " + quote(db.arg())
                    + " --scenario " + firstFailure.scenario() + " --walk-seed " + firstFailure.seed();
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

    public static List<String> quoted(List<String> args) {
        return args.stream().map(ConformanceCheck::quote).toList();
    }

    /** A shell word: quoted when it holds anything a shell would split or expand. */
    public static String quote(String s) {
        return s.matches("[A-Za-z0-9_./:=@%+,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * The witnesses a correct relay must show: every one its scenarios require that such a relay can reach.
     */
    static Set<Witness> expectedWitnesses(RelayUnderTest relay) {
        Set<Witness> w = EnumSet.noneOf(Witness.class);
        scenarios().forEach(s -> w.addAll(s.requiredWitnesses()));
        w.retainAll(relay.traits().reachableWitnesses()); // a relay that delivers and acks at once absorbs no duplicate
        return w;
    }

    /**
     * The scenarios the conformance check runs: every reference scenario but soak, and but issue 20's: the SQL
     * relay interface has no statement for lease renewal, clock skew or overlapping producers, and does not report
     * the finer outcomes that dedup retention, an ack's rows or an unmatched ack's follow-up ask for.
     */
    public static List<Scenario> scenarios() {
        return ReferenceScenarios.defaults().stream().filter(s -> s.hazardBounds().isNone())
                .filter(s -> s.requiredWitnesses().stream().allMatch(SQL_WITNESSES::contains)).toList();
    }

    /** The witnesses the SQL relay can show: those of DESIGN.md (issue 20's come from outcomes it does not report). */
    static final Set<Witness> SQL_WITNESSES = EnumSet.range(Witness.STALE_ACK, Witness.DELIVERY_RETRIED);

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
        int f = -1;
        for (int k = 0; k < scenarios.size(); k++) {
            if (scenarios.get(k).name().equals(first)) {
                f = k;
            }
        }
        List<int[]> out = new ArrayList<>();
        if (f >= 0) {
            for (int i = 0; i < seeds; i++) {
                out.add(new int[]{i, f});
            }
        }
        for (int i = 0; i < seeds; i++) {
            for (int k = 0; k < scenarios.size(); k++) {
                if (k != f) {
                    out.add(new int[]{i, k});
                }
            }
        }
        return out;
    }

    /** The same, trying scenario {@code firstScenario} (if not null) on every seed before the others. */
    public static VariantResult run(RelayUnderTest relay, DbTarget db, long baseSeed, int seeds, String firstScenario,
                                    PrintStream progress) throws SQLException {
        List<Scenario> scenarios = scenarios();
        List<Databases> dbs = new ArrayList<>();
        List<SqlRelay> relays = new ArrayList<>();
        List<RelayModel> models = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (Scenario sc : scenarios) {
                Databases d = db.acquire(relay.traits().deliversAndAcks());
                dbs.add(d);
                d.createSchema(relay.newAdapter());
                relays.add(new SqlRelay(relay, sc, d));
                models.add(new RelayModel(relay.traits().modelLogic(), sc));
            }
            int schedules = 0;
            long steps = 0;
            int failures = 0;
            ScheduleResult first = null;
            ScheduleResult unpromised = null;
            Set<Witness> witnesses = EnumSet.noneOf(Witness.class);
            SortedMap<String, Integer> kinds = new TreeMap<>();
            for (int[] at : order(scenarios, seeds, firstScenario)) {
                int i = at[0];
                int k = at[1];
                long seed = SplitMix64.derive(baseSeed, i);
                List<Step> schedule = RandomSchedules.walk(models.get(k), seed, SCHEDULE_LENGTH);
                SqlRelay sqlRelay = relays.get(k);
                RelayModel model = models.get(k);
                ScheduleResult r = new ScheduleConformance(sqlRelay, model, ScheduleConformance.Trace.NONE).run(seed, schedule);
                if (!r.clean() && failures == 0 && OwnClock.mayReadOwnClock(relay)) {
                    // its first failure counts only if it is the relay's, not its own clock's (OwnClock)
                    OwnClock.requireRepeatable(relay, r,
                            () -> new ScheduleConformance(sqlRelay, model, ScheduleConformance.Trace.NONE).run(seed, schedule));
                }
                schedules++;
                steps += r.steps();
                if (unpromised == null && r.unpromised() != null) {
                    unpromised = r;
                }
                witnesses.addAll(r.witnesses());
                r.outcomeKinds().forEach((kind, n) -> kinds.merge(kind, n, Integer::sum));
                if (!r.clean()) {
                    failures++;
                    if (first == null || (first.violation() == null && r.violation() != null)) {
                        first = r;
                    }
                    if (r.violation() != null) { // the first broken invariant is the verdict; its replay line shows it
                        return new VariantResult(relay, db, schedules, steps, failures, first, witnesses, kinds,
                                (System.nanoTime() - start) / 1_000_000, unpromised);
                    }
                }
                if (progress != null && schedules % (100 * scenarios.size()) == 0) {
                    progress.println("  " + relay.id() + " on " + db.id() + ": " + schedules + "/" + seeds * scenarios.size()
                            + " schedules, " + failures + " failing");
                }
            }
            return new VariantResult(relay, db, schedules, steps, failures, first, witnesses, kinds,
                                    (System.nanoTime() - start) / 1_000_000, unpromised);
        } finally {
            relays.forEach(SqlRelay::close);
            for (Databases d : dbs) {
                db.release(d);
            }
        }
    }

    /** Re-runs one schedule and prints every step on both sides. */
    public static ScheduleResult replay(RelayUnderTest relayUnderTest, DbTarget db, Scenario scenario, long seed, PrintStream out)
            throws SQLException {
        Databases d = db.acquire(relayUnderTest.traits().deliversAndAcks());
        RelayModel model = new RelayModel(relayUnderTest.traits().modelLogic(), scenario);
        List<Step> schedule = RandomSchedules.walk(model, seed, SCHEDULE_LENGTH);
        d.createSchema(relayUnderTest.newAdapter());
        try (SqlRelay relay = new SqlRelay(relayUnderTest, scenario, d)) {
            ScheduleConformance.Trace trace = (n, phase, step, outcome, sql, diff) -> {
                String modelSide = step == null ? "" : "model " + step + " -> " + outcome + " | ";
                out.println(String.format("%3d %-8s %ssql %s", n, phase.startsWith("healing") ? "heal" : "", modelSide,
                        sql == null ? "(could not take the step)" : sql));
                diff.forEach(d1 -> out.println("      differs: " + d1));
            };
            ScheduleResult r = new ScheduleConformance(relay, model, trace).run(seed, schedule);
            out.println(r.summary());
            return r;
        } finally {
            db.release(d);
        }
    }
}
