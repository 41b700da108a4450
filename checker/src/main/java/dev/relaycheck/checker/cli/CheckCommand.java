package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.ModelCheck;
import dev.relaycheck.checker.ReplayRecord;
import dev.relaycheck.checker.SearchResult;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The main job: the logic under test must pass every reference scenario exhaustively, and every catalogue
 * variant must be caught (which proves the checks have teeth). Prints the kill matrix.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Check a logic on every reference scenario and prove every catalogue variant is caught.")
final class CheckCommand implements Callable<Integer> {
    @Mixin
    LogicOptions logic = new LogicOptions();
    @Mixin
    ScenarioOptions scenarios = new ScenarioOptions();
    @Mixin
    SearchOptions search = new SearchOptions();
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RelayLogic subject = logic.load();
        List<Scenario> chosen = scenarios.resolve(ReferenceScenarios.defaults());
        ModelCheck.Outcome o = new ModelCheck(search.bfs(new ProgressPrinter(spec.commandLine().getErr()))).run(subject, chosen);

        out.println("== logic under test: " + subject.id() + " (" + subject.description() + ")");
        for (SearchResult r : o.subject()) {
            out.println(r.summary());
            out.println("  " + r.verdictLine() + " (" + r.timing() + ")");
            r.counterexample().ifPresent(cx -> Failures.show(out, search.results, cx));
        }
        out.println();
        out.println("== kill matrix: every catalogue variant on every scenario");
        out.print(ModelCheck.matrix(o, chosen));
        out.println();
        out.println("== shortest counterexample per variant (replay with the line shown)");
        for (ModelCheck.VariantRow row : o.variants()) {
            row.firstCatch().ifPresentOrElse(cx -> {
                Failures.write(search.results, cx);
                out.printf("%-28s %-20s %2d steps  ./relaycheck replay %s%n", row.variant().id(), cx.invariant(),
                        cx.path().size(), ReplayRecord.of(cx).toToken());
            }, () -> out.printf("%-28s ESCAPED every scenario%n", row.variant().id()));
        }
        out.println();
        long passed = o.subject().stream().filter(SearchResult::passed).count();
        int caught = o.variants().size() - o.escaped().size();
        out.printf("%s: %s passed %d of %d scenarios; %d of %d catalogue variants caught%n",
                o.passed() ? "PASS" : "FAIL", subject.id(), passed, o.subject().size(), caught, o.variants().size());
        return o.passed() ? RelaycheckCli.CLEAN : RelaycheckCli.VIOLATION;
    }
}
