package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import dev.relaycheck.jdbc.adapter.WallClock;
import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceShards;
import dev.relaycheck.jdbc.conformance.ScheduleResult;
import dev.relaycheck.jdbc.crash.CrashKill;
import dev.relaycheck.jdbc.crash.CrashRound;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.race.RaceConfig;
import dev.relaycheck.jdbc.race.RaceHarness;
import dev.relaycheck.jdbc.race.RaceResult;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
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
import java.util.stream.Collectors;

/**
 * One run of {@code relaycheck sql}, from its parsed {@link SqlOptions}: the checks, one shard of them, the merge of
 * the shards, or one failure replayed. Writes {@code OUT/summary.tsv} (rows of the checks run now replace their earlier
 * rows; other checks' rows are kept) and one human-readable report per check ({@code conformance.txt}, {@code race.txt},
 * {@code crash-kill.txt}).
 */
public final class SqlRun {
    /** Exit status when the database could not be reached or started (not the relay's fault, not a usage error). */
    static final int EXIT_DATABASE = 3;

    /** Exit status when no row failed but a time limit left some INCONCLUSIVE (the CLI's INCOMPLETE). */
    public static final int EXIT_INCONCLUSIVE = 4;

    private SqlRun() {
    }

    /**
     * Runs what {@code o} asks; returns the exit status (0 every row PASS or CAUGHT, 1 otherwise, 2 bad arguments, 3 no
     * database, 4 none failed but some INCONCLUSIVE).
     */
    public static int run(SqlOptions o, PrintStream out, PrintStream err) {
        if (o.check().equals("template")) {
            out.print(RelaySqlFile.referenceText());
            return 0;
        }
        RelayUnderTest subject;
        DbTarget db;
        try {
            subject = o.relay().resolve();
            db = DbTarget.named(o.db());
        } catch (IllegalArgumentException e) {
            err.println("relaycheck sql: " + e.getMessage().lines().findFirst().orElse(""));
            return 2;
        } catch (IOException e) {
            err.println("relaycheck sql: " + e.getMessage());
            return EXIT_DATABASE;
        }
        if (o.replay() instanceof SqlOptions.Race race) {
            return replayRace(race, subject, db, out, err);
        }
        if (o.replay() instanceof SqlOptions.Kill kill) {
            return replayCrash(kill, o.outFor(db), subject, db, out, err);
        }
        if (o.replay() instanceof SqlOptions.Walk walk) {
            return replay(walk, subject, db, out, err);
        }
        ConformanceShards shards = o.shard().whole() ? ConformanceShards.whole() : ConformanceShards.shard(o.shard());
        return checks(o, subject, db, shards, o.outFor(db), out, err);
    }

    /**
     * The result of one {@code sql conformance} run over the schedules every shard in {@code files} ran (each
     * {@code --shard I/N} of the same command): the same rows and findings as that run, reports in {@code dir}; a
     * schedule whose full result the report shows is run again here. Exits as that run would.
     */
    public static int merge(SqlOptions o, List<ShardFile> files, Path dir, PrintStream out, PrintStream err) {
        RelayUnderTest subject;
        ConformanceShards shards;
        DbTarget db;
        try {
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
        return checks(o, subject, db, shards, dir, out, err);
    }

    /** The checks {@code o} names, whole, one shard, or merged; reports in {@code dir} (a shard: its rows only). */
    private static int checks(SqlOptions o, RelayUnderTest subject, DbTarget db, ConformanceShards shards, Path dir,
                              PrintStream out, PrintStream err) {
        List<SqlCheckResult> results = new ArrayList<>();
        try {
            out.println(subject.id() + ": " + subject.traits().describe());
            if (o.check().equals("all") || o.check().equals("conformance")) {
                out.println("SQL conformance of " + subject.id() + " on " + db.describe() + ": " + o.seedsFor(db)
                        + " seeds per scenario, base seed " + o.seed() + (shards.shard().whole() ? "" : "; shard " + shards.shard()
                        + ": the schedules at places i of each run with i mod " + shards.shard().count() + " = " + (shards.shard().index() - 1)));
                results.add(SqlChecks.conformance(subject, db, o.seed(), o.seedsFor(db), o.controls(), out, shards));
            }
            if (o.check().equals("all") || o.check().equals("race")) {
                out.println("SQL race of " + subject.id() + " on " + db.describe() + ": " + o.roundsOrDefault() + " rounds");
                results.add(SqlChecks.race(subject, db, o.roundsOrDefault(), o.seed(), o.controls(), out));
            }
            if (o.check().equals("all") || o.check().equals("crash")) {
                out.println("SQL crash-kill of " + subject.id() + " on " + db.describe() + ": " + o.roundsOrDefault() + " kills per cut point");
                results.add(SqlChecks.crashKill(subject, db, o.roundsOrDefault(), o.outFor(db).resolve("crash-kill-files"), o.controls(), out));
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
            Path file = new ShardFile("sql conformance", o.shardArgs(), shards.shard(), shards.rows()).write(dir);
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

    private static int replay(SqlOptions.Walk walk, RelayUnderTest relay, DbTarget db, PrintStream out, PrintStream err) {
        Scenario sc = ReferenceScenarios.byName(walk.scenario()).orElseThrow();
        out.println("replay: " + relay.id() + " on " + db.describe() + ", scenario " + sc.name() + ", walk seed " + walk.walkSeed()
                + (walk.judgesSome() ? ", judging " + walk.judged().stream().map(Enum::name).collect(Collectors.joining(", ")) + " alone" : ""));
        return replaying(db, err, () -> {
            ScheduleResult r = ConformanceCheck.replay(relay, db, sc, walk.walkSeed(), walk.judged(), out);
            out.println(r.clean() ? "NOT REPRODUCED: the relay agrees with the model on every step" : "REPRODUCED");
            return r.clean() ? 0 : 1; // 1: the schedule diverged or broke an invariant
        });
    }

    /**
     * One crash-kill round again: the child killed at the same commit (cut point, n-th commit of that kind, claim
     * batch), the recovery checked as the crash-kill check does; REPRODUCED (exit 1) when it has problems.
     */
    private static int replayCrash(SqlOptions.Kill c, Path dir, RelayUnderTest relay, DbTarget db, PrintStream out, PrintStream err) {
        out.println("replay: " + relay.id() + " on " + db.describe() + ", killed " + c.cut().id() + " #" + c.nth() + " (batch " + c.batch() + ")");
        return replaying(db, err, () -> {
            CrashRound r = new CrashKill(dir.resolve("crash-replay-files").toAbsolutePath())
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
    private static int replayRace(SqlOptions.Race r, RelayUnderTest relay, DbTarget db, PrintStream out, PrintStream err) {
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
