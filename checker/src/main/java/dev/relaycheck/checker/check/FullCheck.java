package dev.relaycheck.checker.check;

import dev.relaycheck.checker.harness.HarnessJvm;
import dev.relaycheck.checker.harness.UserClasses;
import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.report.CheckerRows;
import dev.relaycheck.checker.report.CodeHtml;
import dev.relaycheck.checker.report.CodeReplay;
import dev.relaycheck.checker.report.Histogram;
import dev.relaycheck.checker.report.HtmlReport;
import dev.relaycheck.checker.report.JcstressOutcomes;
import dev.relaycheck.checker.report.ModelRows;
import dev.relaycheck.checker.report.PhaseProgress;
import dev.relaycheck.checker.report.Report;
import dev.relaycheck.checker.report.ReportLinks;
import dev.relaycheck.checker.report.RunDiff;
import dev.relaycheck.checker.report.RunSummary;
import dev.relaycheck.checker.report.SqlRelayUnderTest;
import dev.relaycheck.checker.report.SummaryJson;
import dev.relaycheck.checker.report.SummaryMarkdown;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.jdbc.SqlChecks;
import dev.relaycheck.jdbc.adapter.WallClock;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.store.UserTarget;
import dev.relaycheck.model.summary.SummaryRow;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        QUICK(50, 1, 1, "quick", 1, 3, 1, 1, 24, 12), DEFAULT(150, 3, 2, "quick", 1, 6, 1, 1, 40, 24),
        LONG(2000, 20, 10, "default", 0, 60, 5, 5, 400, 100);

        final int sqlSeeds;
        final int sqlRaceRounds;
        final int crashRounds;
        final String jcstressMode;
        final int jcstressIterations; // per fork; 0 = the mode's own
        /** PostgreSQL's budget: a conformance step there costs several H2 steps (measured: results/sql-postgres). */
        final int pgSeeds;
        final int pgRaceRounds;
        final int pgCrashRounds;
        /** Seeded runs of a relay's own code, on H2 and on PostgreSQL. */
        final int codeRuns;
        final int pgCodeRuns;

        Budget(int sqlSeeds, int sqlRaceRounds, int crashRounds, String jcstressMode, int jcstressIterations, int pgSeeds,
               int pgRaceRounds, int pgCrashRounds, int codeRuns, int pgCodeRuns) {
            this.codeRuns = codeRuns;
            this.pgCodeRuns = pgCodeRuns;
            this.sqlSeeds = sqlSeeds;
            this.sqlRaceRounds = sqlRaceRounds;
            this.crashRounds = crashRounds;
            this.jcstressMode = jcstressMode;
            this.jcstressIterations = jcstressIterations;
            this.pgSeeds = pgSeeds;
            this.pgRaceRounds = pgRaceRounds;
            this.pgCrashRounds = pgCrashRounds;
        }
    }

    /**
     * What to run and where.
     *
     * @param sqlRelay the relay the SQL checks drive (the reference relay unless --adapter or --sql named one)
     * @param sqlDbs   the databases the SQL checks run on ({@code h2}, {@code postgres}, a {@code jdbc:postgresql:} URL)
     * @param sqlControls whether the shipped broken SQL variants run beside the relay ({@code check --controls no}: they
     *                 prove relaycheck's SQL checks on each database, not the user's relay)
     */
    public record Options(RelayLogic subject, List<Scenario> scenarios, BreadthFirstSearch search, Budget budget,
                          Set<String> checkers, Path home, Path results, RelaySpec sqlRelay, List<String> sqlDbs,
                          UserClasses user, HarnessSelection harnesses, boolean sqlControls, Optional<CodeRelay> codeRelay) {
        /** Without a relay checked by its own code. */
        public Options(RelayLogic subject, List<Scenario> scenarios, BreadthFirstSearch search, Budget budget,
                       Set<String> checkers, Path home, Path results, RelaySpec sqlRelay, List<String> sqlDbs,
                       UserClasses user, HarnessSelection harnesses, boolean sqlControls) {
            this(subject, scenarios, search, budget, checkers, home, results, sqlRelay, sqlDbs, user, harnesses, sqlControls,
                    Optional.empty());
        }

        /** With the shipped broken SQL variants as controls. */
        public Options(RelayLogic subject, List<Scenario> scenarios, BreadthFirstSearch search, Budget budget,
                       Set<String> checkers, Path home, Path results, RelaySpec sqlRelay, List<String> sqlDbs,
                       UserClasses user, HarnessSelection harnesses) {
            this(subject, scenarios, search, budget, checkers, home, results, sqlRelay, sqlDbs, user, harnesses, true);
        }

        /** Every jcstress harness and Lincheck's default budget. */
        public Options(RelayLogic subject, List<Scenario> scenarios, BreadthFirstSearch search, Budget budget,
                       Set<String> checkers, Path home, Path results, RelaySpec sqlRelay, List<String> sqlDbs,
                       UserClasses user) {
            this(subject, scenarios, search, budget, checkers, home, results, sqlRelay, sqlDbs, user, HarnessSelection.ALL);
        }

        /** The reference SQL relay on H2, and no user classes for the harnesses (they run the shipped targets). */
        public Options(RelayLogic subject, List<Scenario> scenarios, BreadthFirstSearch search, Budget budget,
                       Set<String> checkers, Path home, Path results) {
            this(subject, scenarios, search, budget, checkers, home, results, RelaySpec.REFERENCE, List.of("h2"),
                    UserClasses.NONE);
        }
    }

    /** A team's relay checked by its own code ({@code check --relay CLASS}): its factory and the class path it comes from. */
    public record CodeRelay(String factory, String classpath, int runs, int shrink) {
        /** Seeded runs on {@code db}: {@code runs} where given (above 0), else the budget's for that database. */
        int runsOn(Dialect db, Budget budget) {
            return runs > 0 ? runs : db == Dialect.H2 ? budget.codeRuns : budget.pgCodeRuns;
        }

        /** Runs spent shrinking a failure on {@code db}: {@code shrink} where given (0 or more), else the default there. */
        int shrinkOn(DbTarget db) {
            return shrink >= 0 ? shrink : dev.relaycheck.code.check.CodeCheck.shrinkAttempts(db);
        }
    }

    /**
     * Which part of the harness phases runs: the jcstress harnesses a regex picks ({@code check --jcstress-tests}),
     * and Lincheck budget properties ({@code check -Dlincheck.NAME=VALUE}, as {@code -D} options of its JVM).
     */
    public record HarnessSelection(String jcstressTests, List<String> lincheckProperties) {
        public static final HarnessSelection ALL = new HarnessSelection(".*", List.of());

        public HarnessSelection {
            lincheckProperties = List.copyOf(lincheckProperties);
        }

        /** What the report says beside the phase's note, empty for the whole curriculum and the default budget. */
        String jcstressNote() {
            return jcstressTests.equals(ALL.jcstressTests) ? "" : ", harnesses matching '" + jcstressTests + "'";
        }

        String lincheckNote() {
            return lincheckProperties.isEmpty() ? "the default small budget" : "budget " + String.join(" ", lincheckProperties);
        }
    }

    /** The report's column for the SQL checks on a database: {@code sql} for H2, {@code sql-postgres} for PostgreSQL. */
    public static String sqlColumn(String dbId) {
        return dbId.equals("h2") ? "sql" : "sql-" + dbId;
    }

    /** The note of a checker that {@code --only} left out. */
    public static final String NOT_SELECTED = "not selected";
    /** What the report says when {@code --only} left the model checker out. */
    public static final String MODEL_NOT_SELECTED = "The model checker was not selected (--only): no exhaustive search ran, "
            + "and catalogue variants that only the model covers were not judged.";
    /** The model's outcome in a run that did not select it: no scenario searched, no variant tried. */
    private static final ModelCheck.Outcome NO_MODEL = new ModelCheck.Outcome(List.of(), List.of());

    private final Options o;
    private final PrintWriter log;
    private final ToIntFunction<Verdict> exitCodes;
    private final PhaseProgress progress;
    private final Optional<RunSummary> baseline;
    private Optional<RunDiff> comparison = Optional.empty();
    /** What the SQL checks found, on every database, drawn in the report. */
    private final List<SqlFinding> sqlFindings = new ArrayList<>();

    /**
     * @param exitCodes the CLI's exit code for a verdict, which summary.json records beside it
     * @param progress  told how far each phase has come
     * @param baseline  an earlier run's summary: the page then opens with what changed since it
     */
    public FullCheck(Options o, PrintWriter log, ToIntFunction<Verdict> exitCodes, PhaseProgress progress,
                     Optional<RunSummary> baseline) {
        this.o = o;
        this.log = log;
        this.exitCodes = exitCodes;
        this.progress = progress;
        this.baseline = baseline;
    }

    /** The comparison with the baseline, once {@link #run()} made the report. */
    public Optional<RunDiff> comparison() {
        return comparison;
    }

    public Report run() {
        List<String> notes = new ArrayList<>();
        boolean userLogic = !o.subject().id().equals("correct");
        List<CheckerRows> checkers = new ArrayList<>();
        ModelCheck.Outcome model;
        if (o.checkers().contains("model")) {
            log.println("[model] exhaustive search of " + o.scenarios().size() + " scenarios for " + o.subject().id()
                    + " and for every catalogue variant");
            model = new ModelCheck(o.search()).run(o.subject(), o.scenarios(),
                    (done, total, logic, scenario) -> progress.update("model", done, total, "searches",
                            logic.isEmpty() ? "" : logic + " on " + scenario));
            checkers.add(ModelRows.of(model));
        } else {
            // left out by --only: no search at all (about 320 of them by default), and nothing of the model is judged
            model = NO_MODEL;
            checkers.add(CheckerRows.skipped("model", NOT_SELECTED));
            notes.add(MODEL_NOT_SELECTED);
        }
        List<Histogram> histograms = new ArrayList<>();
        notes.addAll(harnessNotes(userLogic));
        if (o.checkers().contains("sql")) {
            notes.add("The SQL checks ran " + (o.sqlRelay().equals(RelaySpec.REFERENCE) ? "the reference relay file"
                    : "the relay " + String.join(" ", o.sqlRelay().args())) + " on " + String.join(", ", o.sqlDbs())
                    + (o.sqlControls() ? "; the shipped broken SQL variants ran beside it as negative controls."
                    : "; the shipped broken SQL variants did not run (--controls no): relaycheck's own tests prove the SQL checks catch them."));
        }
        checkers.add(o.checkers().contains("jcstress") ? jcstress(histograms) : CheckerRows.skipped("jcstress", NOT_SELECTED));
        checkers.add(o.checkers().contains("lincheck") ? lincheck() : CheckerRows.skipped("lincheck", NOT_SELECTED));
        if (o.checkers().contains("sql")) {
            o.sqlDbs().forEach(db -> checkers.add(sql(db)));
        } else {
            checkers.add(CheckerRows.skipped("sql", NOT_SELECTED));
        }
        if (o.checkers().contains("code") && o.codeRelay().isPresent()) {
            notes.add("The relay " + o.codeRelay().get().factory() + " was checked by its own code on " + String.join(", ", o.sqlDbs()) + ".");
            o.sqlDbs().forEach(db -> checkers.add(code(db, o.codeRelay().get())));
        } else if (o.checkers().contains("code")) {
            checkers.add(CheckerRows.skipped("code", "no relay given (--relay CLASS)"));
        }
        // a user's relay (--adapter, --sql) is named with what it promises; the reference relay is the shipped one
        Optional<SqlRelayUnderTest> sqlRelay = o.checkers().contains("sql") && !o.sqlRelay().equals(RelaySpec.REFERENCE)
                ? Optional.of(sqlRelayUnderTest()) : Optional.empty();
        Report report = new Report(o.subject(), model, checkers, histograms, notes, sqlRelay, sqlFindings,
                o.checkers().contains("code") ? o.codeRelay().map(CodeRelay::factory) : Optional.empty());
        write(report);
        return report;
    }

    private SqlRelayUnderTest sqlRelayUnderTest() {
        RelayUnderTest relay = o.sqlRelay().resolve();
        return SqlRelayUnderTest.of(relay.id(), relay.traits());
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
                "--iterations", Integer.toString(o.budget().jcstressIterations), "--tests", o.harnesses().jcstressTests(),
                "--out", out.toString()));
        args.addAll(o.user().args());
        int exit = Subprocess.run(HarnessJvm.curriculum(o.home(), args), out, logFile.toAbsolutePath(), 1800,
                new LogProgress("jcstress", "tests", JCSTRESS_TOTAL, JCSTRESS_DONE));
        histograms.addAll(JcstressOutcomes.read(out.resolve("outcomes.tsv")));
        return CheckerRows.read("jcstress", out.resolve("summary.tsv"), exit,
                "curriculum in mode " + o.budget().jcstressMode + o.harnesses().jcstressNote() + (exit < 0 ? ", killed at its time limit" : "")
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
        int exit = Subprocess.run(HarnessJvm.lincheck(o.home(), out, o.harnesses().lincheckProperties(), o.user().args()),
                out, logFile.toAbsolutePath(), 1200, new LogProgress("lincheck", "runs", LINCHECK_TOTAL, LINCHECK_DONE));
        return CheckerRows.read("lincheck", out.resolve("summary.tsv"), exit,
                "every check with " + o.harnesses().lincheckNote() + (exit < 0 ? ", killed at its time limit" : "")
                        + "; log " + o.home().relativize(logFile.toAbsolutePath()), "");
    }

    /** A row of what the relay declares it does not promise: reported, never judged. */
    static final String NOT_PROMISED = "NOT-PROMISED";

    /** The report's column for the relay's own code on a database: {@code code} for H2, {@code code-postgres} for PostgreSQL. */
    public static String codeColumn(String dbId) {
        return dbId.equals("h2") ? "code" : "code-" + dbId;
    }

    /**
     * The relay checked by its own code on one database: a row per invariant (PASS, FAILED with the first failure and
     * its replay line, NOT-PROMISED), one for progress and one for what the runs reached; its page beside the report.
     */
    private CheckerRows code(String dbArg, CodeRelay relay) {
        DbTarget db;
        try {
            db = DbTarget.named(dbArg);
        } catch (java.io.IOException e) {
            log.println("[code] " + dbArg + " skipped: " + e.getMessage());
            return CheckerRows.skipped(codeColumn("postgres"), e.getMessage());
        }
        String column = codeColumn(db.id());
        int runs = relay.runsOn(db.dialect(), o.budget());
        log.println("[" + column + "] " + relay.factory() + ": " + runs + " seeded schedules of its own code on " + db.describe());
        dev.relaycheck.code.check.CodeCheck.Outcome outcome;
        java.util.function.Supplier<dev.relaycheck.code.RelayFactory> factories;
        try {
            factories = dev.relaycheck.code.check.FactoryLoader.load(relay.factory(), relay.classpath());
            int[] done = {0};
            outcome = dev.relaycheck.code.check.CodeCheck.check(factories, db, dev.relaycheck.code.run.Settings.defaults(), runs, 1,
                    i -> true, line -> progress.update(column, ++done[0], runs, "runs", ""), relay.shrinkOn(db));
        } catch (IllegalArgumentException | dev.relaycheck.code.run.RelayRun.Refused | dev.relaycheck.code.observe.OutboxReader.BadQuery e) {
            throw new dev.relaycheck.checker.UsageException(e.getMessage());
        } catch (java.sql.SQLException e) {
            return new CheckerRows(column, "FAIL", List.of(), relay.factory() + " on " + db.describe() + ": " + e.getMessage(), "");
        }
        java.util.function.Function<dev.relaycheck.code.check.CodeCheck.Failure, String> replay = f -> CodeReplay.line(relay.factory(), relay.classpath(), List.of(), dbArg, f);
        List<CheckerRows.Row> rows = new ArrayList<>();
        for (dev.relaycheck.model.Invariant i : dev.relaycheck.code.judge.CodeRunJudge.JUDGED) {
            var failure = outcome.failures().get(i);
            var notPromised = outcome.notPromised().get(i);
            rows.add(failure != null ? new CheckerRows.Row(i.name(), relay.factory(), "PASS", "FAILED", failure.finding().detail()
                    + "; replay: " + replay.apply(failure))
                    : notPromised != null ? new CheckerRows.Row(i.name(), relay.factory(), NOT_PROMISED, NOT_PROMISED, notPromised.finding().detail())
                    : new CheckerRows.Row(i.name(), relay.factory(), "PASS", "PASS", outcome.runs() + " runs"));
        }
        List<String> missing = outcome.missing().stream().map(dev.relaycheck.code.judge.Reached::what).toList();
        rows.add(new CheckerRows.Row("reached", relay.factory(), "PASS", missing.isEmpty() ? "PASS" : CheckerRows.INCONCLUSIVE,
                missing.isEmpty() ? "every required situation reached" : "no run reached " + String.join(", ", missing)));
        rows.add(new CheckerRows.Row("progress", relay.factory(), "PASS",
                outcome.stuck().stream().anyMatch(dev.relaycheck.code.check.CodeCheck.Stuck::confirmed) ? "FAILED"
                        : outcome.stuck().isEmpty() ? "PASS" : CheckerRows.INCONCLUSIVE,
                outcome.stuck().isEmpty() ? "every run reached the end of its healing phase" : outcome.stuck().get(0).why().lines().findFirst().orElse("")));
        Path out = o.results().resolve(column);
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve("report.txt"), dev.relaycheck.code.check.CodeReport.text(relay.factory(), outcome, replay),
                    StandardCharsets.UTF_8);
            Files.writeString(out.resolve("index.html"), CodeHtml.page(relay.factory(), List.of(outcome), replay), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return CheckerRows.of(column, 0, rows, relay.factory() + " by its own code on " + db.describe() + ": " + runs + " seeded runs",
                column + "/index.html");
    }

    private CheckerRows sql(String dbArg) {
        DbTarget db;
        try {
            db = DbTarget.named(dbArg);
        } catch (java.io.IOException e) {
            log.println("[sql] " + dbArg + " skipped: " + e.getMessage());
            return CheckerRows.skipped(sqlColumn("postgres"), e.getMessage());
        }
        String column = sqlColumn(db.id());
        boolean h2 = db.dialect() == Dialect.H2;
        int seeds = h2 ? o.budget().sqlSeeds : o.budget().pgSeeds;
        int raceRounds = h2 ? o.budget().sqlRaceRounds : o.budget().pgRaceRounds;
        int crashRounds = h2 ? o.budget().crashRounds : o.budget().pgCrashRounds;
        Path out = o.results().resolve(column);
        log.println("[" + column + "] conformance on " + seeds + " seeds, real-thread races, crash-kill of a child JVM, on "
                + db.describe());
        RelayUnderTest relay = o.sqlRelay().resolve();
        List<SqlCheckResult> results;
        try {
            progress.update(column, 0, 3, "checks", "conformance");
            SqlCheckResult conformance = SqlChecks.conformance(relay, db, 1, seeds, o.sqlControls(), sqlLines(column, 0, "conformance"));
            progress.update(column, 1, 3, "checks", "race");
            SqlCheckResult race = SqlChecks.race(relay, db, raceRounds, 1, o.sqlControls(), sqlLines(column, 1, "race"));
            progress.update(column, 2, 3, "checks", "crash-kill");
            SqlCheckResult crash = SqlChecks.crashKill(relay, db, crashRounds, out.resolve("crash-work").toAbsolutePath(),
                    o.sqlControls(), sqlLines(column, 2, "crash-kill"));
            progress.update(column, 3, 3, "checks", "");
            results = List.of(conformance, race, crash);
            results.forEach(r -> sqlFindings.addAll(r.findings()));
        } catch (WallClock.ReadException e) {
            throw new dev.relaycheck.checker.UsageException(e.getMessage());
        }
        List<CheckerRows.Row> rows = new ArrayList<>();
        results.forEach(r -> r.rows().forEach(x -> rows.add(new CheckerRows.Row(x.check(), x.target(), x.expect(), x.verdict(), x.detail()))));
        CheckerRows sql = CheckerRows.of(column, 0, rows, relay.id() + " on " + db.describe() + ": conformance on " + seeds
                + " seeds per scenario, " + raceRounds + " races per configuration, " + crashRounds + " kills per cut point",
                column + "/sql-conformance.txt");
        try {
            Files.createDirectories(out);
            for (SqlCheckResult r : results) {
                Files.writeString(out.resolve(r.check() + ".txt"), r.report(), StandardCharsets.UTF_8);
            }
            Files.writeString(out.resolve("summary.tsv"), SummaryRow.file(results.stream().flatMap(r -> r.rows().stream()).toList()),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sql;
    }

    /** A stream for an SQL check's own progress lines: each finished line counts as a result of the check running. */
    private PrintStream sqlLines(String column, int done, String check) {
        int[] lines = {0};
        return new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                if (b == '\n') {
                    progress.update(column, done, 3, "checks", check + ", " + ++lines[0] + " results");
                }
            }
        }, true, StandardCharsets.UTF_8);
    }

    // A checker JVM's log says how many items it will run, then one line per finished item.
    private static final Pattern JCSTRESS_TOTAL = Pattern.compile("^jcstress curriculum, mode \\S+: (\\d+) tests");
    private static final Pattern JCSTRESS_DONE = Pattern.compile("^\\s*\\.*\\s*\\[(OK|FAILED|ERROR|TIMEOUT|VM ERROR|SKIPPED)\\]\\s+(\\S+)");
    private static final Pattern LINCHECK_TOTAL = Pattern.compile("^Lincheck checks, (\\d+) runs");
    private static final Pattern LINCHECK_DONE = Pattern.compile("^\\S+\\s+(\\S+)\\s+\\d+\\.\\d s  ");

    /** Turns a checker's log lines into progress: the total from its first line, one more done per finished item. */
    private final class LogProgress implements Subprocess.LogWatcher {
        private final String phase;
        private final String unit;
        private final Pattern totalLine;
        private final Pattern doneLine;
        private int total;
        private int done;
        private String current = "starting its JVM";

        LogProgress(String phase, String unit, Pattern totalLine, Pattern doneLine) {
            this.phase = phase;
            this.unit = unit;
            this.totalLine = totalLine;
            this.doneLine = doneLine;
            tick();
        }

        @Override
        public void line(String line) {
            Matcher t = totalLine.matcher(line);
            Matcher d = doneLine.matcher(line);
            if (t.find()) {
                total = Integer.parseInt(t.group(1));
                current = "";
            } else if (d.find()) {
                done++;
                total = Math.max(total, done);
                current = "last done: " + d.group(d.groupCount()).replace("dev.relaycheck.stress.", "");
            } else {
                return;
            }
            tick();
        }

        /** The same counts with the time moved on: the printer decides whether that is worth a line. */
        @Override
        public void tick() {
            progress.update(phase, done, total, unit, current);
        }
    }

    private void write(Report r) {
        try {
            Files.createDirectories(o.results());
            comparison = baseline.map(b -> RunDiff.of(b, RunSummary.of(r, exitCodes.applyAsInt(r.verdict()), o.results().toString())));
            Files.writeString(o.results().resolve("index.html"), HtmlReport.render(r, ReportLinks.scan(o.results()), comparison),
                    StandardCharsets.UTF_8);
            Files.writeString(o.results().resolve("summary.md"), SummaryMarkdown.render(r, o.results(), comparison),
                    StandardCharsets.UTF_8);
            Files.writeString(o.results().resolve("summary.json"), SummaryJson.render(r, exitCodes.applyAsInt(r.verdict())),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
