package dev.relaycheck.stress.run;

import org.openjdk.jcstress.annotations.Expect;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Grades a test against what its target should do. A broken target is CAUGHT when jcstress observed at
 * least one FORBIDDEN outcome (that is its purpose), else ESCAPED. The correct logic PASSes only if it
 * observed no FORBIDDEN outcome and saw every ACCEPTABLE_INTERESTING witness at least once: a harness that
 * never exercised its race proves nothing, however clean. A test that did not complete is never a catch and
 * never a pass: an exception is a failure (ESCAPED or FAILED); a time-out or a dead VM, which a loaded
 * machine causes, is INCONCLUSIVE.
 */
public final class JcstressJudge {
    private JcstressJudge() {
    }

    public static JcstressRow judge(TestRun run) {
        String target = JcstressTargets.targetOf(run.variant());
        boolean correct = JcstressTargets.isCorrect(target) || JcstressTargets.isUser(target);
        String expect = correct ? "PASS" : "CATCH";
        String failed = correct ? "FAILED" : "ESCAPED";
        if (!run.completed()) {
            String why = run.messages().isEmpty() ? "" : ": " + run.messages().get(0);
            if (run.timeBound()) { // a loaded machine can make a correct harness time out or its fork die
                return new JcstressRow(run.harness(), target, expect, JcstressRow.INCONCLUSIVE, "jcstress status " + run.status() + why
                        + " (a time limit or a dead fork proves nothing either way: rerun on a quieter machine)");
            }
            return new JcstressRow(run.harness(), target, expect, failed, "jcstress status " + run.status() + why);
        }
        if (run.samples() == 0) {
            return new JcstressRow(run.harness(), target, expect, failed, "no samples");
        }
        List<OutcomeCount> forbidden = run.outcomes().stream().filter(OutcomeCount::forbiddenAndObserved).toList();
        if (!correct) {
            return forbidden.isEmpty()
                    ? new JcstressRow(run.harness(), target, expect, "ESCAPED",
                            "no forbidden outcome in " + run.samples() + " samples")
                    : new JcstressRow(run.harness(), target, expect, "CAUGHT", describe(forbidden));
        }
        if (!forbidden.isEmpty()) {
            return new JcstressRow(run.harness(), target, expect, "FAILED", describe(forbidden));
        }
        List<OutcomeCount> witnesses = run.outcomes().stream()
                .filter(o -> o.expect() == Expect.ACCEPTABLE_INTERESTING).toList();
        List<OutcomeCount> unseen = witnesses.stream().filter(o -> !o.observed()).toList();
        if (!unseen.isEmpty()) {
            return new JcstressRow(run.harness(), target, expect, "FAILED", "witness never observed: "
                    + unseen.stream().map(o -> o.id() + " (" + o.description() + ")").collect(Collectors.joining("; ")));
        }
        return new JcstressRow(run.harness(), target, expect, "PASS",
                "no forbidden outcome; every witness outcome observed (" + witnesses.size() + ")");
    }

    /** The forbidden outcomes seen, grouped by description so one bug reads as one phrase. */
    private static String describe(List<OutcomeCount> forbidden) {
        Set<String> descriptions = new LinkedHashSet<>();
        forbidden.forEach(o -> descriptions.add(o.description()));
        String ids = forbidden.stream().map(OutcomeCount::id).collect(Collectors.joining(" | "));
        return "forbidden [" + ids + "]: " + String.join("; ", descriptions);
    }
}
