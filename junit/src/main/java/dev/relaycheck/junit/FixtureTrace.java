package dev.relaycheck.junit;

import dev.relaycheck.checker.trace.StateDiff;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Violation;
import org.opentest4j.AssertionFailedError;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A fixture's steps as a numbered trace (the columns of the explorer's trace: actor, step, outcome, what
 * changed), the failure it ends in, the line that replays it and the report under target/relaycheck/fixture/.
 */
final class FixtureTrace {
    private final String relayId;
    private final Scenario scenario;
    private final Optional<TestReplay> test = TestReplay.find();
    private final List<String> seeded = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();
    private String start = "";
    private String outcome = "PASSED (no invariant broke, every check held)";

    FixtureTrace(String relayId, Scenario scenario) {
        this.relayId = relayId;
        this.scenario = scenario;
    }

    void seeded(String what) {
        seeded.add(what);
    }

    void started(RelayState s) {
        List<String> rows = new ArrayList<>();
        for (OutboxRow r : s.rows()) {
            rows.add(r.toString());
        }
        start = "rows " + (rows.isEmpty() ? "none" : String.join(", ", rows)) + (seeded.isEmpty() ? "" : " (seeded: "
                + String.join("; ", seeded) + ")");
    }

    void step(Action a, RelayState before, RelayState after) {
        lines.add(String.format("  %3d  %-8s  %-26s  %-40s  %s", lines.size() + 1, a.step().actor(), a.step(), a.outcome(),
                String.join("; ", StateDiff.of(scenario, before, after))));
    }

    String render() {
        StringBuilder b = new StringBuilder();
        b.append("  start: ").append(start).append('\n');
        b.append(String.format("  %3s  %-8s  %-26s  %-40s  %s%n", "#", "actor", "step", "outcome", "state that changed"));
        lines.forEach(l -> b.append(l).append('\n'));
        return b.toString();
    }

    AssertionFailedError violation(Violation v) {
        Invariant i = v.invariant();
        if (!lines.isEmpty()) {
            lines.set(lines.size() - 1, lines.get(lines.size() - 1) + "   <== " + i);
        }
        return fail("VIOLATION " + i, "  what broke: " + v.detail() + "\n  invariant:  " + i.message() + "\n");
    }

    AssertionFailedError failure(String headline, String detail) {
        return fail("FAILED " + headline, "  " + detail + "\n");
    }

    private AssertionFailedError fail(String headline, String detail) {
        outcome = headline + " with relay " + relayId + test.map(t -> " in " + t.className() + "#" + t.method()).orElse("") + "\n"
                + detail;
        Path report = writeReport(null);
        return new AssertionFailedError(outcome + "  trace (" + lines.size() + " steps):\n" + render() + "  replay: " + replayLine()
                + "\n  report: " + report + "\n");
    }

    /** The command that runs the same steps again: the test itself, since a fixture is deterministic. */
    String replayLine() {
        return test.map(TestReplay::line).orElse("run this test again (a fixture is deterministic: same steps, same outcomes)");
    }

    Path writeReport(RelayState end) {
        String name = test.map(TestReplay::fileName).orElse("fixture") + ".txt";
        String text = "relaycheck fixture: relay " + relayId + "\n" + outcome.stripTrailing() + "\n" + render()
                + (end == null ? "" : "  end: " + end.describe() + "\n") + "  replay: " + replayLine() + "\n";
        return Reports.write("fixture", name, text);
    }

    /** Where a class was loaded from (a directory or a jar), for a --classpath that names it again. */
    static Optional<String> codeSource(Class<?> type) {
        CodeSource src = type.getProtectionDomain().getCodeSource();
        if (src == null || src.getLocation() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(src.getLocation().toURI()).toString());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
