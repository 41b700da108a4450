package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.BreadthFirstSearch;
import dev.relaycheck.checker.SearchResult;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Exhaustive breadth-first search of one logic over scenarios. */
@Command(name = "explore", mixinStandardHelpOptions = true,
        description = "Search scenarios exhaustively (breadth-first); report a shortest counterexample.")
final class ExploreCommand implements Callable<Integer> {
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
        PrintWriter err = spec.commandLine().getErr();
        RelayLogic subject = logic.load();
        BreadthFirstSearch bfs = search.bfs(new ProgressPrinter(err));
        int exit = RelaycheckCli.CLEAN;
        int passed = 0;
        var chosen = scenarios.resolve(ReferenceScenarios.defaults());
        List<SearchResult> results = new ArrayList<>();
        for (Scenario s : chosen) {
            SearchResult r = bfs.search(subject, s);
            results.add(r);
            Failures.report(out, search.results, r, "");
            if (r.passed()) {
                passed++;
            } else {
                exit = RelaycheckCli.VIOLATION;
            }
        }
        out.printf("explore %s: %d of %d scenarios passed%n", subject.id(), passed, chosen.size());
        return LogicFaultExits.of(results, exit);
    }
}
