package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.check.FullCheck;
import dev.relaycheck.checker.harness.HarnessJvm;
import dev.relaycheck.checker.harness.UserClasses;
import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.replay.ReplayLine;
import dev.relaycheck.checker.report.CheckerRows;
import dev.relaycheck.checker.report.JUnitXml;
import dev.relaycheck.checker.report.Report;
import dev.relaycheck.checker.report.RunDiff;
import dev.relaycheck.checker.report.RunSummary;
import dev.relaycheck.checker.report.SummaryMarkdown;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * The main job: the logic under test must pass every reference scenario exhaustively, every checker must
 * pass, and every catalogue variant must be caught by at least one checker (of those {@code --only} selected).
 * Writes results/index.html, summary.md and summary.json.
 */
@Command(name = "check",
        description = {"Run every checker (model, jcstress, Lincheck, SQL on H2 and PostgreSQL) and write DIR/index.html, DIR/summary.md "
                + "and DIR/summary.json. The logic under test must pass every scenario; every catalogue variant must be "
                + "caught. Progress goes to stderr, one line per phase that rewrites itself on a terminal.",
                "With --logic CLASS --classpath JAR the model checker, jcstress and Lincheck run your logic (the latter two "
                        + "inside the shipped thread-safe store); --store CLASS races your own RelayStore in jcstress and "
                        + "Lincheck; --adapter CLASS or --sql FILE makes the SQL checks run your relay."})
final class CheckCommand implements Callable<Integer> {
    @Mixin
    LogicOptions logic = new LogicOptions();
    @Mixin
    ScenarioOptions scenarios = new ScenarioOptions();
    @Mixin
    SearchOptions search = new SearchOptions();
    @Mixin
    SqlRelayOptions sql = new SqlRelayOptions();
    @Option(names = "--budget", paramLabel = "quick|default|long", defaultValue = "default",
            description = "quick, default (about eight minutes on 2 cores) or long (jcstress mode default, 10x SQL seeds); "
                    + "default ${DEFAULT-VALUE}")
    String budget;
    @Option(names = "--only", paramLabel = "CHECKERS", split = ",", description = "subset of model,jcstress,lincheck,sql,code "
            + "(default: all but code; with --relay, code); a checker left out is not run and not judged")
    List<String> only;
    @Option(names = "--relay", paramLabel = "CLASS",
            description = "your relay checked by its own code: a dev.relaycheck.code.RelayFactory on --classpath (as 'relaycheck code'), on every --db")
    String relay;
    @Option(names = "--code-runs", paramLabel = "N",
            description = "seeded schedules of the --relay's own code on each database (default: the budget's; quick 24 on H2, 12 on PostgreSQL)")
    Integer codeRuns;
    @Option(names = "--code-shrink", paramLabel = "N",
            description = "runs spent shrinking each failure of the --relay's own code (default 40 on H2, 12 on PostgreSQL; 0: none)")
    Integer codeShrink;
    @Option(names = "--baseline", paramLabel = "DIR",
            description = "an earlier run's results directory (or summary.json): the report opens with what changed since")
    Path baseline;
    @Option(names = "--store", paramLabel = "CLASS",
            description = "your dev.relaycheck.model.store.RelayStore (from --classpath), raced by jcstress and Lincheck")
    String store;
    @Option(names = "--jcstress-tests", paramLabel = "REGEX", defaultValue = ".*",
            description = "the jcstress harnesses to run (default: all), e.g. Lease_01")
    String jcstressTests;
    @Option(names = "-D", paramLabel = "lincheck.NAME=VALUE", mapFallbackValue = "",
            description = "a Lincheck budget property for its phase, e.g. -Dlincheck.iterations=3 (see 'relaycheck lincheck')")
    Map<String, String> lincheckBudget = new TreeMap<>();
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RelayLogic subject = logic.load();
        List<Scenario> chosen = scenarios.resolve(ReferenceScenarios.defaults());
        if (only == null) {
            only = relay != null ? List.of("code") : List.of("model", "jcstress", "lincheck", "sql");
        }
        Set<String> checkers = new LinkedHashSet<>();
        for (String c : only) {
            if (!Report.CHECKER_ORDER.contains(c) && !c.equals("code")) {
                throw new UsageException("unknown checker '" + c + "' in --only (model, jcstress, lincheck, sql, code)");
            }
            checkers.add(c);
        }
        if (checkers.contains("code") && relay == null) {
            throw new UsageException("--only code needs --relay CLASS (your relay's dev.relaycheck.code.RelayFactory)");
        }
        if ((codeRuns != null || codeShrink != null) && relay == null) {
            throw new UsageException((codeRuns != null ? "--code-runs" : "--code-shrink") + " needs --relay CLASS");
        }
        if (codeRuns != null && codeRuns < 1 || codeShrink != null && codeShrink < 0) {
            throw new UsageException("--code-runs must be at least 1 and --code-shrink at least 0");
        }
        if (relay != null) {
            try {
                dev.relaycheck.code.check.FactoryLoader.load(relay, logic.classpath); // one usage line now, not after the model ran
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        FullCheck.Budget b = switch (budget) {
            case "quick" -> FullCheck.Budget.QUICK;
            case "default" -> FullCheck.Budget.DEFAULT;
            case "long" -> FullCheck.Budget.LONG;
            default -> throw new UsageException("unknown --budget '" + budget + "' (quick, default or long)");
        };
        ProgressPrinter progress = new ProgressPrinter(spec.commandLine().getErr());
        Path home = Path.of(System.getProperty("relaycheck.home", ".")).toAbsolutePath().normalize();
        // read first: the baseline may be the very directory this run overwrites, and a bad one is a usage error
        // before anything (the results folder included) is made
        Optional<RunSummary> before = Optional.ofNullable(baseline).map(p -> RunSummary.read(p, p.toString()));
        RelaySpec sqlRelay;
        List<String> dbs = sql.dbs(List.of("h2", "postgres"));
        boolean sqlControls;
        try {
            sqlRelay = RelaySpec.of(null, null, sql.sqlFile, sql.adapter, sql.adapter == null ? null : logic.classpath);
            sqlRelay.resolve(); // a bad relay is a usage error now, not a failure after the model checker ran
            for (String db : dbs) {
                if (!db.equals("h2") && !db.equals("postgres") && !db.startsWith("jdbc:postgresql:")) {
                    throw new IllegalArgumentException("unknown --db '" + db + "' (h2, postgres or a jdbc:postgresql:// URL)");
                }
            }
            sqlControls = sql.controls();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        UserClasses user = UserClasses.of(logic.logic, store, logic.classpath);
        if (user.given()) {
            user.load(); // one usage line now, not a failed harness later
        }
        // the regression corpus first: a recorded failure of this logic that comes back fails the run in seconds
        List<JUnitXml.Case> corpus = new ArrayList<>();
        if (checkers.contains("model")) {
            List<Corpus.Replayed> replayed = Corpus.replay(search.results(), subject);
            if (!replayed.isEmpty()) {
                out.println("== regression corpus: " + replayed.size() + " recorded failures of " + subject.id() + " replayed first");
            }
            for (Corpus.Replayed c : replayed) {
                out.println("  " + (c.cameBack() ? "CAME BACK " + c.result().verdict() : "fixed") + "  " + c.file());
                corpus.add(JUnitXml.Case.corpus(c.file().getFileName().toString(), c.cameBack(), c.result().verdict().toString(),
                        c.result().report(), ReplayLine.of(c.record(), subject)));
            }
            List<Corpus.Replayed> back = replayed.stream().filter(Corpus.Replayed::cameBack).toList();
            if (!back.isEmpty()) {
                back.forEach(c -> out.print(c.result().report() + "  replay:     " + ReplayLine.of(c.record(), subject) + "\n"));
                writeJUnitXml(JUnitXml.render(corpus));
                Verdict worst = Verdict.worst(back.stream().map(c -> c.result().verdict()).toList());
                out.printf("FAIL: %d recorded failures of %s came back (%s, replayed before any search); verdict %s; "
                        + "JUnit XML %s%n", back.size(), subject.id(), search.results.resolve("failures"), worst,
                        search.results.resolve(JUnitXml.FILE));
                out.flush();
                return ExitCodes.of(worst);
            }
            out.flush();
        }
        FullCheck.Options options = new FullCheck.Options(subject, chosen, search.bfs(progress), b, checkers,
                home, search.results(), sqlRelay, List.copyOf(new LinkedHashSet<>(dbs)), user,
                new FullCheck.HarnessSelection(jcstressTests, HarnessJvm.lincheckProperties(lincheckBudget)), sqlControls,
                Optional.ofNullable(relay).map(r -> new FullCheck.CodeRelay(r, logic.classpath, codeRuns == null ? 0 : codeRuns,
                        codeShrink == null ? -1 : codeShrink)));
        PhaseProgressPrinter phases = PhaseProgressPrinter.forStderr(spec.commandLine().getErr());
        FullCheck check = new FullCheck(options, spec.commandLine().getErr(), ExitCodes::of, phases, before);
        Report r = check.run();
        writeJUnitXml(JUnitXml.render(r, corpus));
        phases.finishLine();
        print(out, r, chosen, check.comparison());
        check.comparison().ifPresent(d -> {
            out.print("\n== before/after (--baseline " + baseline + ")\n" + d.text());
            out.flush();
        });
        return ExitCodes.of(r.verdict());
    }

    private void writeJUnitXml(String xml) {
        Path file = search.results.resolve(JUnitXml.FILE);
        try {
            java.nio.file.Files.createDirectories(search.results);
            java.nio.file.Files.writeString(file, xml, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + file, e);
        }
    }

    private void print(PrintWriter out, Report r, List<Scenario> chosen, Optional<RunDiff> comparison) {
        ModelCheck.Outcome o = r.model();
        r.codeRelay().ifPresent(c -> out.println("== relay under test, by its own code: " + c));
        if (r.ran("model") || r.codeRelay().isEmpty()) {
            out.println("== " + (r.referenceLogic() ? Report.referenceLogicLine(r.subject().id(), id -> id)
                    : "logic under test: " + r.subject().id()) + " (" + r.subject().description() + ")");
        }
        if (r.ran("model")) {
            printModel(out, o, chosen);
        } else {
            out.println("model checker not selected (--only " + String.join(",", only) + "): no exhaustive search ran");
            out.println();
        }
        out.println("== checkers");
        for (CheckerRows c : r.checkers()) {
            out.printf("%-9s %-7s %s%n", c.checker(), c.status(), c.note());
        }
        out.println();
        out.print(SummaryMarkdown.render(r, search.results, comparison));
        out.println();
        long passed = o.subject().stream().filter(SearchResult::passed).count();
        // only what a checker of this run covered: a variant that no selected checker tries is neither caught nor escaped
        List<String> covered = r.targets().stream().filter(r::covered).toList();
        long caught = covered.stream().filter(r::caughtSomewhere).count();
        // without the model, the line names what was checked: the SQL relay when one was given
        String logicName = (r.referenceLogic() ? "the reference logic " : "") + r.subject().id();
        String what = r.ran("model") ? logicName + " passed " + passed + " of " + o.subject().size() + " scenarios"
                : relay != null ? "relay " + relay + " by its own code, model not selected"
                : r.sqlRelay().map(s -> "SQL relay " + s.id()).orElse(logicName) + ", model not selected";
        out.printf("%s: %s; %s; verdict %s; report %s%n", r.passed() ? "PASS" : "FAIL", what,
                covered.isEmpty() ? "no variants run" : caught + " of " + covered.size() + " variants caught", r.verdict(),
                search.results.resolve("index.html"));
    }

    private void printModel(PrintWriter out, ModelCheck.Outcome o, List<Scenario> chosen) {
        for (SearchResult s : o.subject()) {
            Failures.report(out, search.results, s, "");
        }
        out.println();
        out.println("== model kill matrix: every catalogue variant on every scenario");
        out.print(ModelCheck.matrix(o, chosen));
        out.println();
        out.println("== shortest counterexample per variant (replay with the line shown)");
        for (ModelCheck.VariantRow row : o.variants()) {
            row.firstCatch().ifPresentOrElse(cx -> {
                Failures.write(search.results, cx);
                out.printf("%-28s %-20s %2d steps  %s%n", row.variant().id(), cx.invariant(),
                        cx.path().size(), ReplayLine.of(cx));
            }, () -> out.printf("%-28s ESCAPED every scenario%n", row.variant().id()));
        }
        out.println();
    }
}
