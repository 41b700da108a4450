package dev.relaycheck.code.check;

import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.judge.Finding;
import dev.relaycheck.code.judge.Reached;
import dev.relaycheck.code.run.RelayRun;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.code.schedule.GivenSchedule;
import dev.relaycheck.code.schedule.PctStrategy;
import dev.relaycheck.code.schedule.RandomStrategy;
import dev.relaycheck.code.schedule.Strategy;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.SplitMix64;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Many runs of a relay's code on one database, each with a new instance of the team's factory: run {@code i} draws its schedule from seed
 * {@code SplitMix64.derive(seed, i)}, by a random walk when {@code i} is even and by PCT when it is odd. Every
 * invariant broken is reported with the first run that broke it, its trace and the line that replays it; a run
 * whose actor did not reach its next point within the bound is run again with three times the bound before it
 * counts as the relay not progressing.
 */
public final class CodeCheck {
    /** PCT's depth: the number of priority change points a run's schedule has, plus one. */
    public static final int PCT_DEPTH = 3;

    private CodeCheck() {
    }

    /**
     * The seed and strategy of run {@code index}: what a replay line names.
     *
     * @param strategy random or pct
     */
    public record RunId(int index, String strategy, long seed) {
        public static RunId of(long baseSeed, int index) {
            return new RunId(index, index % 2 == 0 ? "random" : "pct", SplitMix64.derive(baseSeed, index));
        }
    }

    /** The strategy a replay line names. */
    public static Strategy strategy(String name, long seed, Settings settings, String schedule) {
        return switch (name) {
            case "random" -> new RandomStrategy(seed);
            case "pct" -> new PctStrategy(seed, PCT_DEPTH, settings.steps());
            case "schedule" -> new GivenSchedule(schedule);
            default -> throw new IllegalArgumentException("--strategy is random, pct or schedule, not '" + name + "'");
        };
    }

    /**
     * An invariant broken: the first run (by index) that broke it, and that run's schedule shrunk while it still
     * breaks it ({@code result}, replayed by {@code --strategy schedule --schedule ...}).
     */
    public record Failure(Finding finding, RunId run, RunResult result, int unshrunkSteps) {
        /** Whether shrinking made the schedule shorter. */
        public boolean shrunk() {
            return result.strategy().equals("schedule");
        }
    }

    /** Shrinking attempts per invariant broken: each is a run, and a PostgreSQL run costs many times an H2 one. */
    public static int shrinkAttempts(DbTarget db) {
        return db.dialect() == dev.relaycheck.jdbc.db.Dialect.H2 ? 40 : 12;
    }

    /** A run that did not progress, run again with three times the bound, and how that went. */
    public record Stuck(RunId run, String why, boolean confirmed) {
    }

    /**
     * What the runs on one database came to.
     *
     * @param runs        runs made
     * @param failures    the first run that broke each invariant, by invariant
     * @param notPromised what broke that the relay does not promise, with the first run that showed it
     * @param reached     how many runs reached each situation
     * @param stuck       runs whose actors did not progress
     * @param rows        a row per run, in run order ({@link #row}): what a shard records for {@code relaycheck merge}
     */
    public record Outcome(DbTarget db, Settings settings, int runs, Map<Invariant, Failure> failures, Map<Invariant, Failure> notPromised,
                          Map<Reached, Integer> reached, List<Stuck> stuck, List<List<String>> rows) {

        /** What the runs missed of what a pass needs. */
        public List<Reached> missing() {
            return Reached.required(reached).stream().filter(r -> reached.getOrDefault(r, 0) == 0).toList();
        }

        public Verdict verdict() {
            if (!failures.isEmpty() || stuck.stream().anyMatch(Stuck::confirmed)) {
                return Verdict.FAILED;
            }
            if (!stuck.isEmpty()) {
                return Verdict.INCONCLUSIVE;
            }
            return missing().isEmpty() ? Verdict.PASSED : Verdict.VACUOUS;
        }
    }

    public enum Verdict {
        PASSED, FAILED, INCONCLUSIVE, VACUOUS
    }

    /**
     * Runs {@code runs} runs of {@code factory} on {@code db}, the indexes {@code shard} picks of them; {@code progress}
     * hears one line per run.
     */
    public static Outcome check(java.util.function.Supplier<? extends RelayFactory> factories, DbTarget db, Settings settings, int runs, long baseSeed,
                                java.util.function.IntPredicate shard, Consumer<String> progress) throws SQLException {
        return check(factories, db, settings, runs, baseSeed, shard, progress, shrinkAttempts(db));
    }

    /**
     * The same, shrinking each failure with at most {@code shrink} runs (0: its schedule as the seed made it), for a
     * relay whose runs are costly (one that starts an application context per instance).
     */
    public static Outcome check(java.util.function.Supplier<? extends RelayFactory> factories, DbTarget db, Settings settings, int runs, long baseSeed,
                                java.util.function.IntPredicate shard, Consumer<String> progress, int shrink) throws SQLException {
        Map<Invariant, Failure> failures = new EnumMap<>(Invariant.class);
        Map<Invariant, Failure> notPromised = new EnumMap<>(Invariant.class);
        Map<Reached, Integer> reached = new EnumMap<>(Reached.class);
        List<Stuck> stuck = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        int made = 0;
        for (int i = 0; i < runs; i++) {
            if (!shard.test(i)) {
                continue;
            }
            made++;
            RunId id = RunId.of(baseSeed, i);
            Settings used = settings;
            Stuck s = null;
            RunResult r = run(factories.get(), db, used, id);
            if (r.unfinished() != null) {
                used = settings.withBound(settings.bound().multipliedBy(3));
                RunResult again = run(factories.get(), db, used, id);
                s = new Stuck(id, again.unfinished() != null ? again.unfinished() : r.unfinished(), again.unfinished() != null);
                stuck.add(s);
                r = again.unfinished() == null ? again : r;
            }
            record(factories, db, used, id, r, failures, notPromised, shrink);
            r.reached().forEach(x -> reached.merge(x, 1, Integer::sum));
            rows.add(row(i, r, s));
            progress.accept(String.format("  run %d (%s seed %d): %s", i, id.strategy(), id.seed(), r.unfinished() != null ? "did not progress"
                    : r.findings().isEmpty() ? "ok" : r.findings().stream().map(f -> f.invariant().name()).toList().toString()));
        }
        return new Outcome(db, settings, made, failures, notPromised, reached, stuck, rows);
    }

    /**
     * What run {@code index} did, as text fields: its index, the invariants it broke, those it broke that the relay
     * does not promise, what it reached, and whether it progressed ({@code ok}, {@code inconclusive} or {@code stuck},
     * then why).
     */
    static List<String> row(int index, RunResult r, Stuck stuck) {
        return List.of(String.valueOf(index), names(r.findings()), names(r.notPromised()),
                String.join(",", r.reached().stream().map(Enum::name).toList()),
                stuck == null ? "ok" : stuck.confirmed() ? "stuck" : "inconclusive", stuck == null ? "" : stuck.why());
    }

    private static String names(List<Finding> findings) {
        return String.join(",", findings.stream().map(f -> f.invariant().name()).toList());
    }

    /**
     * The outcome of one check over the runs the {@code rows} record (every shard's, in any order): the counts added
     * up, and for each invariant the lowest-numbered run that broke it run again here from its number and shrunk, as
     * one check over the same runs reports it.
     */
    public static Outcome merge(java.util.function.Supplier<? extends RelayFactory> factories, DbTarget db, Settings settings,
                                long baseSeed, List<List<String>> rows) throws SQLException {
        List<List<String>> sorted = new ArrayList<>(rows);
        sorted.sort(java.util.Comparator.comparingInt(r -> Integer.parseInt(r.get(0))));
        Map<Invariant, Failure> failures = new EnumMap<>(Invariant.class);
        Map<Invariant, Failure> notPromised = new EnumMap<>(Invariant.class);
        Map<Reached, Integer> reached = new EnumMap<>(Reached.class);
        List<Stuck> stuck = new ArrayList<>();
        for (List<String> row : sorted) {
            RunId id = RunId.of(baseSeed, Integer.parseInt(row.get(0)));
            for (String name : split(row.get(3))) {
                reached.merge(Reached.valueOf(name), 1, Integer::sum);
            }
            if (!row.get(4).equals("ok")) {
                stuck.add(new Stuck(id, row.get(5), row.get(4).equals("stuck")));
            }
            boolean newFailure = split(row.get(1)).stream().anyMatch(n -> !failures.containsKey(Invariant.valueOf(n)));
            boolean newNotPromised = split(row.get(2)).stream().anyMatch(n -> !notPromised.containsKey(Invariant.valueOf(n)));
            if (!newFailure && !newNotPromised) {
                continue;
            }
            Settings runSettings = row.get(4).equals("ok") ? settings : settings.withBound(settings.bound().multipliedBy(3));
            record(factories, db, runSettings, id, run(factories.get(), db, runSettings, id), failures, notPromised, shrinkAttempts(db));
        }
        return new Outcome(db, settings, sorted.size(), failures, notPromised, reached, stuck, sorted);
    }

    /** The invariants run {@code id} broke first among the runs so far, each with its schedule shrunk. */
    private static void record(java.util.function.Supplier<? extends RelayFactory> factories, DbTarget db, Settings settings, RunId id,
                               RunResult r, Map<Invariant, Failure> failures, Map<Invariant, Failure> notPromised, int shrink) throws SQLException {
        for (Finding f : r.findings()) {
            if (!failures.containsKey(f.invariant())) {
                RunResult small = shrink == 0 ? r : RunShrinker.shrink(factories, db, settings, r, f.invariant(), shrink);
                Finding same = small.findings().stream().filter(x -> x.invariant() == f.invariant()).findFirst().orElse(f);
                failures.put(f.invariant(), new Failure(same, id, small, r.schedule().split(" ").length));
            }
        }
        for (Finding f : r.notPromised()) {
            notPromised.putIfAbsent(f.invariant(), new Failure(f, id, r, 0));
        }
    }

    private static List<String> split(String field) {
        return field.isEmpty() ? List.of() : List.of(field.split(","));
    }

    /** One run, as a replay line names it. */
    public static RunResult run(RelayFactory factory, DbTarget db, Settings settings, RunId id) throws SQLException {
        return new RelayRun(factory, db, settings, strategy(id.strategy(), id.seed(), settings, null), id.seed()).run();
    }
}
