package dev.relaycheck.checker.report;

import dev.relaycheck.checker.BreadthFirstSearch;
import dev.relaycheck.checker.ModelCheck;
import dev.relaycheck.checker.harness.HarnessJvm;
import dev.relaycheck.checker.harness.UserClasses;
import dev.relaycheck.jdbc.CheckResult;
import dev.relaycheck.jdbc.CheckRow;
import dev.relaycheck.jdbc.SqlChecks;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.store.UserTarget;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code relaycheck check}: runs every checker within a budget and writes results/index.html,
 * results/summary.md and results/summary.json.
 *
 * <p>The model checker runs in this JVM on the logic under test; jcstress and Lincheck run in their own
 * JVMs on the shipped harnesses (they are compiled against the catalogue, so a user's --logic is checked by
 * the model only, and the report says so); the SQL checks run here on H2.
 */
public final class FullCheck {

    /** How long to spend. */
    public enum Budget {
        QUICK(50, 1, 1, "quick", 1), DEFAULT(150, 3, 2, "quick", 1), LONG(2000, 20, 10, "default", 0);

        final int sqlSeeds;
        final int sqlRaceRounds;
        final int crashRounds;
        final String jcstressMode;
        final int jcstressIterations; // per fork; 0 = the mode's own

        Budget(int sqlSeeds, int sqlRaceRounds, int crashRounds, String jcstressMode, int jcstressIterations) {
            this.sqlSeeds = sqlSeeds;
            this.sqlRaceRounds = sqlRaceRounds;
            this.crashRounds = crashRounds;
            this.jcstressMode = jcstressMode;
            this.jcstressIterations = jcstressIterations;
        }
    }

    /** What to run and where. */
    public record Options(RelayLogic subject, List<Scenario> scenarios, BreadthFirstSearch search, Budget budget,
                          Set<String> checkers, Path home, Path results, UserClasses user) {

        /** Without user classes for the harnesses: jcstress and Lincheck run the shipped targets. */
        public Options(RelayLogic subject, List<Scenario> scenarios, BreadthFirstSearch search, Budget budget,
                       Set<String> checkers, Path home, Path results) {
            this(subject, scenarios, search, budget, checkers, home, results, UserClasses.NONE);
        }
    }

    private final Options o;
    private final PrintWriter log;

    public FullCheck(Options o, PrintWriter log) {
        this.o = o;
        this.log = log;
    }

    public Report run() {
        List<String> notes = new ArrayList<>();
        boolean userLogic = !o.subject().id().equals("correct");
        log.println("[model] exhaustive search of " + o.scenarios().size() + " scenarios for " + o.subject().id()
                + " and for every catalogue variant");
        ModelCheck.Outcome model = new ModelCheck(o.search())
                .run(o.subject(), o.scenarios());
        List<CheckerRows> checkers = new ArrayList<>();
        checkers.add(ModelRows.of(model));
        List<Histogram> histograms = new ArrayList<>();
        notes.addAll(harnessNotes(userLogic));
        checkers.add(o.checkers().contains("jcstress") ? jcstress(histograms) : CheckerRows.skipped("jcstress", "not selected"));
        checkers.add(o.checkers().contains("lincheck") ? lincheck() : CheckerRows.skipped("lincheck", "not selected"));
        checkers.add(o.checkers().contains("sql") ? sql() : CheckerRows.skipped("sql", "not selected"));
        Report report = new Report(o.subject(), model, checkers, histograms, notes);
        write(report);
        return report;
    }

    /** What the report says about whose classes the harnesses ran. */
    private List<String> harnessNotes(boolean userLogic) {
        List<String> out = new ArrayList<>();
        boolean harnesses = o.checkers().contains("jcstress") || o.checkers().contains("lincheck");
        if (o.user().given()) {
            UserTarget user = o.user().load();
            List<String> ran = new ArrayList<>();
            if (o.checkers().contains("jcstress")) {
                ran.add("jcstress (every harness's User test, in forked JVMs that proved they loaded these classes)");
            }
            if (o.checkers().contains("lincheck")) {
                ran.add("Lincheck (every check)");
            }
            if (!ran.isEmpty()) {
                out.add(String.join(" and ", ran) + " ran " + user.describe()
                        + ", not the shipped catalogue, which the model checker covers.");
            }
            if (!user.hasSnapshot()) {
                out.add(user.id() + " produces no snapshot: it got the outcome-only checks (jcstress harnesses whose"
                        + " outcome needs the store's state and Lincheck's relay-protocol check did not run on it).");
            }
            if (user.storeClass().isPresent() && o.checkers().contains("model")) {
                out.add("the model checker checks logic, not stores: it ran " + o.subject().id() + ", not " + user.id() + ".");
            }
        } else if (userLogic && harnesses) {
            out.add("jcstress and Lincheck ran the shipped correct logic and catalogue: " + o.subject().id()
                    + " is not a class they can load (give --logic CLASS --classpath JAR).");
        }
        if (userLogic && o.checkers().contains("sql")) {
            out.add("the SQL relay runs the shipped logics (it is SQL, not pluggable); it did not run " + o.subject().id() + ".");
        }
        return out;
    }

    private CheckerRows jcstress(List<Histogram> histograms) {
        Path jar = o.home().resolve("stress-tests/target/jcstress.jar");
        Path out = o.results().resolve("jcstress").toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            return new CheckerRows("jcstress", "FAIL", List.of(), "no " + jar + ": build with 'mvn -DskipTests install'", "");
        }
        log.println("[jcstress] curriculum, mode " + o.budget().jcstressMode + " (a few minutes)");
        Path logFile = o.results().resolve("logs/jcstress.log");
        List<String> args = new ArrayList<>(List.of("--mode", o.budget().jcstressMode,
                "--iterations", Integer.toString(o.budget().jcstressIterations), "--out", out.toString()));
        args.addAll(o.user().args());
        int exit = Subprocess.run(HarnessJvm.curriculum(o.home(), args), out, logFile.toAbsolutePath(), 1800);
        histograms.addAll(JcstressOutcomes.read(out.resolve("outcomes.tsv")));
        return CheckerRows.read("jcstress", out.resolve("summary.tsv"), exit,
                "curriculum in mode " + o.budget().jcstressMode + (exit < 0 ? ", killed at its time limit" : "")
                        + "; log " + o.home().relativize(logFile.toAbsolutePath()), "jcstress/index.html");
    }

    private CheckerRows lincheck() {
        Path module = o.home().resolve("lincheck-tests");
        Path cpFile = module.resolve("target/classpath.txt");
        Path out = o.results().resolve("lincheck").toAbsolutePath();
        if (!Files.isRegularFile(cpFile)) {
            return new CheckerRows("lincheck", "FAIL", List.of(), "no " + cpFile + ": build with 'mvn -DskipTests install'", "");
        }
        log.println("[lincheck] linearizability and model-checking checks, small budget");
        Path logFile = o.results().resolve("logs/lincheck.log");
        int exit = Subprocess.run(HarnessJvm.lincheck(o.home(), out, List.of(), o.user().args()),
                out, logFile.toAbsolutePath(), 1200);
        return CheckerRows.read("lincheck", out.resolve("summary.tsv"), exit,
                "every check with the default small budget" + (exit < 0 ? ", killed at its time limit" : "")
                        + "; log " + o.home().relativize(logFile.toAbsolutePath()), "");
    }

    private CheckerRows sql() {
        Path out = o.results().resolve("sql");
        log.println("[sql] conformance on " + o.budget().sqlSeeds + " seeds, real-thread races, crash-kill of a child JVM");
        PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
        List<CheckResult> results = List.of(
                SqlChecks.conformance(1, o.budget().sqlSeeds, quiet),
                SqlChecks.race(o.budget().sqlRaceRounds, 1, quiet),
                SqlChecks.crashKill(o.budget().crashRounds, o.results().resolve("sql/crash-work").toAbsolutePath(), quiet));
        List<CheckerRows.Row> rows = new ArrayList<>();
        results.forEach(r -> r.rows().forEach(x -> rows.add(new CheckerRows.Row(x.check(), x.target(), x.expect(), x.verdict(), x.detail()))));
        CheckerRows sql = CheckerRows.of("sql", 0, rows, "conformance on " + o.budget().sqlSeeds
                + " seeds per scenario, " + o.budget().sqlRaceRounds + " races per configuration, "
                + o.budget().crashRounds + " kills per cut point (H2 in memory and on files)", "sql/sql-conformance.txt");
        try {
            Files.createDirectories(out);
            StringBuilder tsv = new StringBuilder(CheckRow.HEADER).append('\n');
            for (CheckResult r : results) {
                Files.writeString(out.resolve(r.check() + ".txt"), r.report(), StandardCharsets.UTF_8);
            }
            results.forEach(r -> r.rows().forEach(row -> tsv.append(row.tsv()).append('\n')));
            Files.writeString(out.resolve("summary.tsv"), tsv.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sql;
    }

    private void write(Report r) {
        try {
            Files.createDirectories(o.results());
            List<String> traces = new ArrayList<>();
            Path lincheck = o.results().resolve("lincheck");
            if (Files.isDirectory(lincheck)) {
                try (Stream<Path> files = Files.list(lincheck)) {
                    files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".txt")).sorted().forEach(traces::add);
                }
            }
            boolean jcstressHtml = Files.isRegularFile(o.results().resolve("jcstress/index.html"));
            Files.writeString(o.results().resolve("index.html"), HtmlReport.render(r, traces, jcstressHtml), StandardCharsets.UTF_8);
            Files.writeString(o.results().resolve("summary.md"), SummaryMarkdown.render(r), StandardCharsets.UTF_8);
            Files.writeString(o.results().resolve("summary.json"), SummaryJson.render(r), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
