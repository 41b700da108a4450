package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Exhaustive breadth-first search of one logic over scenarios. */
@Command(name = "explore",
        description = "Search scenarios exhaustively (breadth-first); report every invariant broken in each scenario, each "
                + "with its shortest counterexample and replay line (--first-violation: the first alone), and write their "
                + "records under DIR/failures/.")
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
        var chosen = scenarios.resolve(ReferenceScenarios.defaults());
        Path results = search.results();
        List<SearchResult> found = new ArrayList<>();
        for (Scenario s : chosen) {
            SearchResult r = bfs.search(subject, s);
            Failures.report(out, results, r, "");
            found.add(r);
        }
        long passed = found.stream().filter(SearchResult::passed).count();
        out.printf("explore %s: %d of %d scenarios passed; verdict %s%n", subject.id(), passed, chosen.size(),
                Verdict.ofAll(found));
        return ExitCodes.of(found);
    }
}
