package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ScheduleResult;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;

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
 * Command line of the SQL checks. Writes {@code OUT/summary.tsv} (rows of the checks run now replace
 * their earlier rows; other checks' rows are kept) and one human-readable report per check
 * ({@code conformance.txt}, {@code race.txt}, {@code crash-kill.txt}).
 */
public final class SqlChecksCli {
    static final String USAGE = "usage: SqlChecks [all|conformance|race|crash] [--seeds N] [--seed S] [--rounds N] [--out DIR]"
            + " | replay --target ID --scenario NAME --walk-seed N";

    private SqlChecksCli() {
    }

    /** Parsed options with their defaults. */
    record Options(String command, int seeds, long seed, int rounds, Path out, String target, String scenario, Long walkSeed) {
    }

    /** Runs the command; returns the exit status (0 every row PASS or CAUGHT, 1 otherwise, 2 bad arguments). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("relaycheck sql: " + e.getMessage() + " (" + USAGE + ")");
            return 2;
        }
        if (o.command().equals("replay")) {
            return replay(o, out);
        }
        List<CheckResult> results = new ArrayList<>();
        if (o.command().equals("all") || o.command().equals("conformance")) {
            out.println("SQL conformance: " + o.seeds() + " seeds per scenario, base seed " + o.seed());
            results.add(SqlChecks.conformance(o.seed(), o.seeds(), out));
        }
        if (o.command().equals("all") || o.command().equals("race")) {
            out.println("SQL race: " + o.rounds() + " rounds");
            results.add(SqlChecks.race(o.rounds(), o.seed(), out));
        }
        if (o.command().equals("all") || o.command().equals("crash")) {
            out.println("SQL crash-kill: " + o.rounds() + " kills per cut point");
            results.add(SqlChecks.crashKill(o.rounds(), o.out().resolve("crash-kill-files"), out));
        }
        try {
            write(o.out(), results);
        } catch (IOException e) {
            err.println("relaycheck sql: cannot write " + o.out() + ": " + e.getMessage());
            return 1;
        }
        results.forEach(r -> out.print(r.summary()));
        out.println("wrote " + o.out().resolve("summary.tsv"));
        return results.stream().allMatch(CheckResult::passed) ? 0 : 1;
    }

    static Options parse(String[] args) {
        List<String> a = List.of(args);
        int i = 0;
        String command = "all";
        if (!a.isEmpty() && !a.get(0).startsWith("--")) {
            command = a.get(0);
            i = 1;
            if (!Set.of("all", "conformance", "race", "crash", "replay").contains(command)) {
                throw new IllegalArgumentException("unknown command '" + command + "'");
            }
        }
        int seeds = 125;
        long seed = 1;
        int rounds = command.equals("race") ? 3 : 5;
        Path out = Path.of("results", "sql");
        String target = null;
        String scenario = null;
        Long walkSeed = null;
        for (; i < a.size(); i += 2) {
            String opt = a.get(i);
            if (i + 1 >= a.size()) {
                throw new IllegalArgumentException("option " + opt + " needs a value");
            }
            String v = a.get(i + 1);
            switch (opt) {
                case "--seeds" -> seeds = positive(opt, v);
                case "--seed" -> seed = number(opt, v);
                case "--rounds" -> rounds = positive(opt, v);
                case "--out" -> out = Path.of(v);
                case "--target" -> target = v;
                case "--scenario" -> scenario = v;
                case "--walk-seed" -> walkSeed = number(opt, v);
                default -> throw new IllegalArgumentException("unknown option '" + opt + "'");
            }
        }
        if (command.equals("replay")) {
            if (target == null || scenario == null || walkSeed == null) {
                throw new IllegalArgumentException("replay needs --target, --scenario and --walk-seed");
            }
            if (SqlVariant.byId(target).isEmpty()) {
                throw new IllegalArgumentException("unknown target '" + target + "'");
            }
            if (ReferenceScenarios.byName(scenario).isEmpty()) {
                throw new IllegalArgumentException("unknown scenario '" + scenario + "'");
            }
        }
        return new Options(command, seeds, seed, rounds, out, target, scenario, walkSeed);
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

    private static int replay(Options o, PrintStream out) {
        SqlVariant v = SqlVariant.byId(o.target()).orElseThrow();
        Scenario sc = ReferenceScenarios.byName(o.scenario()).orElseThrow();
        try {
            ScheduleResult r = ConformanceCheck.replay(v, ClaimForm.SKIP_LOCKED, sc, o.walkSeed(), out);
            return r.clean() ? 0 : 1; // 1: the schedule diverged or broke an invariant
        } catch (SQLException e) {
            out.println("H2 failed: " + e.getMessage());
            return 1;
        }
    }

    /** Writes the reports and merges the rows into summary.tsv, sorted by check then target. */
    static void write(Path dir, List<CheckResult> results) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> files = Map.of(SqlChecks.CONFORMANCE, "conformance.txt", SqlChecks.RACE, "race.txt",
                SqlChecks.CRASH_KILL, "crash-kill.txt");
        Set<String> ran = new TreeSet<>();
        for (CheckResult r : results) {
            ran.add(r.check());
            Files.writeString(dir.resolve(files.get(r.check())), r.report() + "\n" + r.summary(), StandardCharsets.UTF_8);
        }
        Map<String, CheckRow> rows = new TreeMap<>();
        Path summary = dir.resolve("summary.tsv");
        if (Files.exists(summary)) {
            List<String> lines = Files.readAllLines(summary, StandardCharsets.UTF_8);
            if (!lines.isEmpty() && lines.get(0).equals(CheckRow.HEADER)) {
                for (String line : lines.subList(1, lines.size())) {
                    CheckRow row = CheckRow.parse(line);
                    if (!ran.contains(row.check())) {
                        rows.put(row.check() + "\t" + row.target(), row);
                    }
                }
            }
        }
        results.forEach(r -> r.rows().forEach(row -> rows.put(row.check() + "\t" + row.target(), row)));
        StringBuilder b = new StringBuilder(CheckRow.HEADER).append('\n');
        rows.values().stream().sorted().forEach(row -> b.append(row.tsv()).append('\n'));
        Files.writeString(summary, b.toString(), StandardCharsets.UTF_8);
    }
}
