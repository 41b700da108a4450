package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import dev.relaycheck.jdbc.adapter.WallClock;
import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceShards;
import dev.relaycheck.jdbc.conformance.ScheduleResult;
import dev.relaycheck.jdbc.crash.CrashKill;
import dev.relaycheck.jdbc.crash.CrashRound;
import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.race.RaceConfig;
import dev.relaycheck.jdbc.race.RaceHarness;
import dev.relaycheck.jdbc.race.RaceResult;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.shard.Shard;
import dev.relaycheck.model.shard.ShardFile;
import dev.relaycheck.model.summary.SummaryRow;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Command line of the SQL checks ({@code relaycheck sql}). Writes {@code OUT/summary.tsv} (rows of the checks run now replace
 * their earlier rows; other checks' rows are kept) and one human-readable report per check
 * ({@code conformance.txt}, {@code race.txt}, {@code crash-kill.txt}).
 */
public final class SqlChecksCli {
    static final String USAGE = "usage: relaycheck sql [all|conformance|race|crash] [RELAY] [--db h2|postgres|jdbc:postgresql://...] "
            + "[--seeds N] [--seed S] [--rounds N] [--controls yes|no] [--out DIR] [--shard I/N] | replay RELAY [--db DB] (--scenario NAME --walk-seed N | --cut CUT --nth N --batch N | --race-seed S --shared-database yes|no) | template; "
            + "RELAY: --target ID [--claim-form conditional-update] | --sql FILE | --adapter CLASS --classpath CP";
    /** Exit status when the database could not be reached or started (not the relay's fault, not a usage error). */
    static final int EXIT_DATABASE = 3;

    /** Conformance seeds per scenario by default: PostgreSQL steps cost about 7 times H2's. */
    public static final int DEFAULT_SEEDS_H2 = 125;
    public static final int DEFAULT_SEEDS_POSTGRES = 10;

    private SqlChecksCli() {
    }

    /** Parsed options with their defaults. */
    record Options(String command, Integer seeds, long seed, int rounds, Path out, RelaySpec relay, String db, String scenario,
                   Long walkSeed, boolean controls, CrashReplay crash, RaceReplay race, Shard shard) {
        int seedsFor(DbTarget target) {
            return seeds != null ? seeds : target.dialect() == Dialect.H2 ? DEFAULT_SEEDS_H2 : DEFAULT_SEEDS_POSTGRES;
        }

        Path outFor(DbTarget target) {
            return out != null ? out : Path.of("results", target.dialect() == Dialect.H2 ? "sql" : "sql-" + target.id());
        }
    }

    /** {@code replay --cut CUT --nth N --batch N}: one crash-kill round, as a failing round's replay line names it. */
    record CrashReplay(CutPoint cut, int nth, int batch) {
    }

    /** {@code replay --race-seed S --shared-database yes|no}: one race, as a failing race's replay line names it. */
    record RaceReplay(long seed, boolean sharedDatabase) {
    }

    /** Exit status when no row failed but a time limit left some INCONCLUSIVE (the CLI's INCOMPLETE). */
    public static final int EXIT_INCONCLUSIVE = 4;

    /**
     * Runs the command; returns the exit status (0 every row PASS or CAUGHT, 1 otherwise, 2 bad arguments, 3 no
     * database, 4 none failed but some INCONCLUSIVE).
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        RelayUnderTest subject;
        try {
            o = parse(args);
            if (o.command().equals("template")) {
                out.print(RelaySqlFile.referenceText());
                return 0;
            }
            subject = o.relay().resolve();
        } catch (IllegalArgumentException e) {
            err.println("relaycheck sql: " + e.getMessage().lines().findFirst().orElse("") + (e.getMessage().startsWith("unknown command")
                    || e.getMessage().startsWith("unknown option") ? " (" + USAGE + ")" : ""));
            return 2;
        }
        DbTarget db;
        try {
            db = DbTarget.named(o.db());
        } catch (IllegalArgumentException e) {
            err.println("relaycheck sql: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("relaycheck sql: " + e.getMessage());
            return EXIT_DATABASE;
        }
        if (o.command().equals("replay") && o.race() != null) {
            return replayRace(o, subject, db, out, err);
        }
        if (o.command().equals("replay") && o.crash() != null) {
            return replayCrash(o, subject, db, out, err);
        }
        if (o.command().equals("replay")) {
            return replay(o, subject, db, out, err);
        }
        ConformanceShards shards = o.shard().whole() ? ConformanceShards.whole() : ConformanceShards.shard(o.shard());
        return checks(o, subject, db, shards, o.outFor(db), args, out, err);
    }

    /**
     * The result of one {@code sql conformance} run over the schedules every shard in {@code files} ran (each
     * {@code --shard I/N} of the same command): the same rows and findings as that run, reports in {@code dir}; a
     * schedule whose full result the report shows is run again here. Exits as that run would.
     */
    public static int merge(List<ShardFile> files, Path dir, PrintStream out, PrintStream err) {
        List<String> args = new ArrayList<>(List.of("conformance"));
        args.addAll(files.get(0).args());
        Options o;
        RelayUnderTest subject;
        ConformanceShards shards;
        DbTarget db;
        try {
            o = parse(args.toArray(String[]::new));
            subject = o.relay().resolve();
            shards = ConformanceShards.merge(files);
            db = DbTarget.named(o.db());
        } catch (IllegalArgumentException e) {
            err.println("relaycheck merge: " + e.getMessage().lines().findFirst().orElse(""));
            return 2;
        } catch (IOException e) {
            err.println("relaycheck merge: " + e.getMessage());
            return EXIT_DATABASE;
        }
        return checks(o, subject, db, shards, dir, args.toArray(String[]::new), out, err);
    }

    /** The checks {@code o} names, whole, one shard, or merged; reports in {@code dir} (a shard: its rows only). */
    private static int checks(Options o, RelayUnderTest subject, DbTarget db, ConformanceShards shards, Path dir, String[] args,
                              PrintStream out, PrintStream err) {
        List<SqlCheckResult> results = new ArrayList<>();
        try {
            out.println(subject.id() + ": " + subject.traits().describe());
            if (o.command().equals("all") || o.command().equals("conformance")) {
                out.println("SQL conformance of " + subject.id() + " on " + db.describe() + ": " + o.seedsFor(db)
                        + " seeds per scenario, base seed " + o.seed() + (shards.shard().whole() ? "" : "; shard " + shards.shard()
                        + ": the schedules at places i of each run with i mod " + shards.shard().count() + " = " + (shards.shard().index() - 1)));
                results.add(SqlChecks.conformance(subject, db, o.seed(), o.seedsFor(db), o.controls(), out, shards));
            }
            if (o.command().equals("all") || o.command().equals("race")) {
                out.println("SQL race of " + subject.id() + " on " + db.describe() + ": " + o.rounds() + " rounds");
                results.add(SqlChecks.race(subject, db, o.rounds(), o.seed(), o.controls(), out));
            }
            if (o.command().equals("all") || o.command().equals("crash")) {
                out.println("SQL crash-kill of " + subject.id() + " on " + db.describe() + ": " + o.rounds() + " kills per cut point");
                results.add(SqlChecks.crashKill(subject, db, o.rounds(), o.outFor(db).resolve("crash-kill-files"), o.controls(), out));
            }
        } catch (WallClock.ReadException e) {
            err.println("relaycheck sql: " + e.getMessage());
            return 2;
        } catch (IllegalStateException e) {
            err.println("relaycheck sql: " + e.getMessage().lines().findFirst().orElse(""));
            return EXIT_DATABASE;
        }
        if (!shards.shard().whole()) { // its rows alone: a shard's verdicts are those of its schedules, the merge's are the run's
            results.forEach(r -> out.print(r.report()));
            List<String> shaping = new ArrayList<>();
            for (int i = 1; i < args.length; i += 2) {
                if (!args[i].equals("--shard") && !args[i].equals("--out")) {
                    shaping.addAll(List.of(args[i], args[i + 1]));
                }
            }
            Path file = new ShardFile("sql conformance", shaping, shards.shard(), shards.rows()).write(dir);
            out.println("shard " + shards.shard() + " of sql conformance: " + file + " written; the verdict is the merge's: relaycheck merge DIR...");
            return 0;
        }
        try {
            write(dir, results);
        } catch (IOException e) {
            err.println("relaycheck sql: cannot write " + dir + ": " + e.getMessage());
            return 1;
        }
        results.forEach(r -> out.print(r.summary()));
        out.println("wrote " + dir.resolve("summary.tsv"));
        if (results.stream().allMatch(SqlCheckResult::passed)) {
            return 0;
        }
        return results.stream().allMatch(r -> r.passed() || r.inconclusive()) ? EXIT_INCONCLUSIVE : 1;
    }

    static Options parse(String[] args) {
        List<String> a = List.of(args);
        int i = 0;
        String command = "all";
        if (!a.isEmpty() && !a.get(0).startsWith("--")) {
            command = a.get(0);
            i = 1;
            if (!Set.of("all", "conformance", "race", "crash", "replay", "template").contains(command)) {
                throw new IllegalArgumentException("unknown command '" + command + "'");
            }
        }
        Integer seeds = null;
        long seed = 1;
        int rounds = command.equals("race") ? 3 : 5;
        Path out = null;
        String target = null;
        String claimForm = null;
        String sql = null;
        String adapter = null;
        String classpath = null;
        String db = "h2";
        String scenario = null;
        Long walkSeed = null;
        boolean controls = true;
        String cut = null;
        Integer nth = null;
        Integer batch = null;
        Long raceSeed = null;
        Boolean shared = null;
        Shard shard = Shard.WHOLE;
        for (; i < a.size(); i += 2) {
            String opt = a.get(i);
            if (i + 1 >= a.size()) {
                throw new IllegalArgumentException("option " + opt + " needs a value");
            }
            String v = a.get(i + 1);
            switch (opt) {
                case "--seeds" -> seeds = positive(opt, v);
                case "--shard" -> shard = Shard.parse(v);
                case "--seed" -> seed = number(opt, v);
                case "--rounds" -> rounds = positive(opt, v);
                case "--out" -> out = Path.of(v);
                case "--target" -> target = v;
                case "--claim-form" -> claimForm = v;
                case "--sql" -> sql = v;
                case "--adapter" -> adapter = v;
                case "--classpath" -> classpath = v;
                case "--db" -> db = v;
                case "--scenario" -> scenario = v;
                case "--walk-seed" -> walkSeed = number(opt, v);
                case "--cut" -> cut = v;
                case "--nth" -> nth = positive(opt, v);
                case "--batch" -> batch = positive(opt, v);
                case "--race-seed" -> raceSeed = number(opt, v);
                case "--shared-database" -> shared = switch (v) {
                    case "yes" -> true;
                    case "no" -> false;
                    default -> throw new IllegalArgumentException("--shared-database takes yes or no, got '" + v + "'");
                };
                case "--controls" -> controls = switch (v) {
                    case "yes" -> true;
                    case "no" -> false;
                    default -> throw new IllegalArgumentException("--controls takes yes or no, got '" + v + "'");
                };
                default -> throw new IllegalArgumentException("unknown option '" + opt + "'");
            }
        }
        RelaySpec relay = RelaySpec.of(target, claimForm, sql, adapter, classpath);
        CrashReplay crash = null;
        RaceReplay race = null;
        if (command.equals("replay") && raceSeed != null) {
            if (cut != null || scenario != null) {
                throw new IllegalArgumentException("replay takes one of --race-seed, --cut or --scenario");
            }
            race = new RaceReplay(raceSeed, shared != null && shared);
        } else if (raceSeed != null || shared != null) {
            throw new IllegalArgumentException("--race-seed and --shared-database belong to 'replay' (one race)");
        } else if (command.equals("replay") && cut != null) {
            String id = cut;
            CutPoint point = CutPoint.byId(cut).orElseThrow(() -> new IllegalArgumentException("unknown --cut '" + id + "' ("
                    + java.util.Arrays.stream(CutPoint.values()).map(CutPoint::id).collect(java.util.stream.Collectors.joining(", ")) + ")"));
            crash = new CrashReplay(point, nth == null ? 1 : nth, batch == null ? 1 : batch);
        } else if (cut != null || nth != null || batch != null) {
            throw new IllegalArgumentException("--cut, --nth and --batch belong to 'replay' (one crash-kill round)");
        } else if (command.equals("replay")) {
            if (scenario == null || walkSeed == null) {
                throw new IllegalArgumentException("replay needs --scenario and --walk-seed, or --cut (and the relay: --target, --sql or --adapter)");
            }
            if (ReferenceScenarios.byName(scenario).isEmpty()) {
                throw new IllegalArgumentException("unknown scenario '" + scenario + "'");
            }
        }
        if (!shard.whole() && !command.equals("conformance")) {
            throw new IllegalArgumentException("--shard splits the conformance schedules: relaycheck sql conformance --shard I/N");
        }
        return new Options(command, seeds, seed, rounds, out, relay, db, scenario, walkSeed, controls, crash, race, shard);
    }

    private static int positive(String opt, String v) {
        long n = number(opt, v);
        if (n < 1 || n > 1_000_000) {
            throw new IllegalArgumentException(opt + " must be between 1 and 1000000, got " + v);
        }
        return (int) n;
    }

    private static long number(String opt, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(opt + " needs a number, got '" + v + "'");
        }
    }

    /** One replay's run: prints what it did and returns the exit status. */
    private interface ReplayRun {
        int run() throws IOException, SQLException, InterruptedException;
    }

    /** Runs a replay; what stops it (the relay reads a wall clock, the database fails) is one line and an exit status. */
    private static int replaying(DbTarget db, PrintStream err, ReplayRun replay) {
        try {
            return replay.run();
        } catch (WallClock.ReadException e) {
            err.println("relaycheck sql: " + e.getMessage());
            return 2;
        } catch (IOException | SQLException | RelaySqlException e) {
            err.println("relaycheck sql: " + db.id() + " failed: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            return EXIT_DATABASE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("relaycheck sql: interrupted");
            return EXIT_DATABASE;
        }
    }

    private static int replay(Options o, RelayUnderTest relay, DbTarget db, PrintStream out, PrintStream err) {
        Scenario sc = ReferenceScenarios.byName(o.scenario()).orElseThrow();
        out.println("replay: " + relay.id() + " on " + db.describe() + ", scenario " + sc.name() + ", walk seed " + o.walkSeed());
        return replaying(db, err, () -> {
            ScheduleResult r = ConformanceCheck.replay(relay, db, sc, o.walkSeed(), out);
            out.println(r.clean() ? "NOT REPRODUCED: the relay agrees with the model on every step" : "REPRODUCED");
            return r.clean() ? 0 : 1; // 1: the schedule diverged or broke an invariant
        });
    }

    /**
     * One crash-kill round again: the child killed at the same commit (cut point, n-th commit of that kind, claim
     * batch), the recovery checked as the crash-kill check does; REPRODUCED (exit 1) when it has problems.
     */
    private static int replayCrash(Options o, RelayUnderTest relay, DbTarget db, PrintStream out, PrintStream err) {
        CrashReplay c = o.crash();
        out.println("replay: " + relay.id() + " on " + db.describe() + ", killed " + c.cut().id() + " #" + c.nth() + " (batch " + c.batch() + ")");
        return replaying(db, err, () -> {
            CrashRound r = new CrashKill(o.outFor(db).resolve("crash-replay-files").toAbsolutePath())
                    .round(relay, db, true, c.cut(), c.nth(), c.batch(), "replay-" + c.cut().id());
            out.println("  " + r.summary());
            out.println("  child: " + r.at());
            r.recovery().forEach(step -> out.println("  recovery: " + step));
            if (!r.concluded()) { // a child past its time limit twice proved nothing either way
                out.println("INCONCLUSIVE: " + r.timedOut());
                return EXIT_INCONCLUSIVE;
            }
            out.println(r.clean() ? "NOT REPRODUCED: the relay recovered completely" : "REPRODUCED");
            return r.clean() ? 0 : 1;
        });
    }

    /**
     * One race again with the seed and configuration a failing race printed: REPRODUCED (exit 1) when it breaks a
     * promised invariant. The seed fixes the pollers' faults and stalls; thread timing is not reproducible.
     */
    private static int replayRace(Options o, RelayUnderTest relay, DbTarget db, PrintStream out, PrintStream err) {
        RaceReplay r = o.race();
        out.println("replay: " + relay.id() + " on " + db.describe() + ", race seed " + r.seed()
                + (r.sharedDatabase() ? ", shared database" : "") + " (the seed fixes faults and stalls, not thread timing)");
        return replaying(db, err, () -> {
            RaceResult result = RaceHarness.run(RaceConfig.defaults(relay, db, r.seed()).withSharedDatabase(r.sharedDatabase()), db);
            out.println("  " + result.summary());
            result.violations().forEach(v -> out.println("  FAILED " + v));
            out.println(result.clean() ? "NOT REPRODUCED: the race ended clean" : "REPRODUCED");
            return result.clean() ? 0 : 1;
        });
    }

    /** Writes the reports and merges the rows into summary.tsv, sorted by check then target. */
    static void write(Path dir, List<SqlCheckResult> results) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> files = Map.of(SqlCheckResult.CONFORMANCE, "conformance.txt", SqlCheckResult.RACE, "race.txt",
                SqlCheckResult.CRASH_KILL, "crash-kill.txt");
        Set<String> ran = new TreeSet<>();
        for (SqlCheckResult r : results) {
            ran.add(r.check());
            Files.writeString(dir.resolve(files.get(r.check())), r.report() + "\n" + r.summary(), StandardCharsets.UTF_8);
        }
        Map<String, SummaryRow> rows = new TreeMap<>();
        Path summary = dir.resolve("summary.tsv");
        if (Files.exists(summary)) {
            List<String> lines = Files.readAllLines(summary, StandardCharsets.UTF_8);
            if (!lines.isEmpty() && lines.get(0).equals(SummaryRow.HEADER)) {
                for (String line : lines.subList(1, lines.size())) {
                    SummaryRow row = SummaryRow.parse(line);
                    if (!ran.contains(row.check())) {
                        rows.put(row.check() + "\t" + row.target(), row);
                    }
                }
            }
        }
        results.forEach(r -> r.rows().forEach(row -> rows.put(row.check() + "\t" + row.target(), row)));
        Files.writeString(summary, SummaryRow.file(rows.values().stream().sorted().toList()), StandardCharsets.UTF_8);
    }
}
