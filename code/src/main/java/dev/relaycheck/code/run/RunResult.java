package dev.relaycheck.code.run;

import dev.relaycheck.code.judge.Finding;
import dev.relaycheck.code.judge.Reached;

import java.util.List;
import java.util.Set;

/**
 * What one run of a relay's code came to.
 *
 * @param strategy     random, pct or schedule
 * @param seed         the seed its schedule was drawn from
 * @param schedule     the faulty phase's steps as text: {@code --schedule} replays them as they were
 * @param trace        every step, faulty and healing
 * @param findings     the invariants it broke, the first time each broke
 * @param notPromised  what broke that the relay does not promise
 * @param reached      the situations it reached
 * @param unfinished   why the run could not finish (an actor that did not reach its next point), or null
 */
public record RunResult(String strategy, long seed, String schedule, List<TraceLine> trace, List<Finding> findings,
                        List<Finding> notPromised, Set<Reached> reached, String unfinished) {

    public boolean failed() {
        return !findings.isEmpty();
    }

    /** The trace as text, one line a step; the step a finding names is marked. */
    public String traceText() {
        StringBuilder b = new StringBuilder();
        for (TraceLine t : trace) {
            b.append(t.text());
            findings.stream().filter(f -> f.step() == t.number()).forEach(f -> b.append("   <== ").append(f.invariant()));
            b.append('\n');
        }
        return b.toString();
    }
}
