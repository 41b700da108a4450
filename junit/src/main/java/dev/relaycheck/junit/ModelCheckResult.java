package dev.relaycheck.junit;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.replay.ReplayLine;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.TraceFormatter;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import org.opentest4j.AssertionFailedError;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a model check of one logic found, scenario by scenario, and the assertions a test makes on it. A failure
 * message holds what the CLI prints: the explorer's trace ({@link TraceFormatter}) and the line that replays it
 * ({@link ReplayLine}); the same text is in the report under target/relaycheck/model/.
 *
 * @param logic   the logic searched
 * @param results one search per scenario, in order
 * @param report  the report file written
 */
public record ModelCheckResult(RelayLogic logic, List<SearchResult> results, Path report) {

    static ModelCheckResult of(RelayLogic logic, List<SearchResult> results, String reportName) {
        String name = reportName + ".txt";
        StringBuilder b = new StringBuilder("relaycheck model check: logic " + logic.id() + "\n");
        for (SearchResult r : results) {
            b.append(r.summary()).append("\n  verdict: ").append(r.verdictLine()).append('\n');
            explain(r).ifPresent(x -> b.append(x).append('\n'));
        }
        return new ModelCheckResult(logic, List.copyOf(results), Reports.write("model", name, b.toString()));
    }

    /** Every scenario searched completely, no violation, every required witness reached, the logic kept its contract. */
    public boolean passed() {
        return results.stream().allMatch(SearchResult::passed);
    }

    /** The counterexamples found: per scenario, one per invariant broken, each its shortest, shortest first. */
    public List<Counterexample> counterexamples() {
        return results.stream().flatMap(r -> r.counterexamples().stream()).toList();
    }

    /** Fails the test unless {@link #passed()}: with each failing scenario's trace and replay line. */
    public ModelCheckResult assertPassed() {
        List<String> failures = new ArrayList<>();
        for (SearchResult r : results) {
            if (!r.passed()) {
                failures.add(r.verdictLine() + " in scenario " + r.scenario().name() + "\n" + explain(r).orElse(""));
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionFailedError("relaycheck: logic " + logic.id() + " failed the model check in " + failures.size()
                    + " of " + results.size() + " scenarios\n" + String.join("\n", failures) + "\n  report: " + report + "\n");
        }
        return this;
    }

    /**
     * A negative control: fails the test unless some scenario broke one of {@code expected}. A check that
     * cannot find the bug it is there for proves nothing.
     */
    public ModelCheckResult assertViolates(Invariant... expected) {
        Set<Invariant> want = Set.of(expected);
        if (counterexamples().stream().noneMatch(c -> want.contains(c.invariant()))) {
            List<String> seen = results.stream().map(r -> r.scenario().name() + ": " + r.verdictLine()).toList();
            throw new AssertionFailedError("relaycheck: expected logic " + logic.id() + " to break one of " + List.of(expected)
                    + ", but no scenario did: " + seen + "\n  report: " + report + "\n");
        }
        return this;
    }

    /** The trace and the replay line of a scenario that did not pass, as the CLI prints them. */
    static Optional<String> explain(SearchResult r) {
        if (r.logicFault().isPresent()) {
            LogicFault f = r.logicFault().get();
            return Optional.of(f.format() + TestReplay.replayLines("", ReplayLine.of(f)).stripTrailing());
        }
        if (r.violated()) {
            return Optional.of(String.join("\n", r.counterexamples().stream().map(cx -> TraceFormatter.format(cx)
                    + TestReplay.replayLines("", ReplayLine.of(cx)).stripTrailing()).toList()));
        }
        return Optional.empty();
    }
}
