package dev.relaycheck.checker.trace;

import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;

import java.util.List;

/**
 * One numbered line of a counterexample.
 *
 * @param healing true for steps of the fault-free healing phase that follows the explored path
 */
public record TraceStep(int number, Step step, Outcome outcome, RelayState before, RelayState after, boolean healing) {

    /** Length of the run of healing Ticks starting at {@code i} (0 if none): traces draw such a run as one. */
    public static int healingTicksFrom(List<TraceStep> trace, int i) {
        int n = 0;
        while (i + n < trace.size() && trace.get(i + n).healing() && trace.get(i + n).step() instanceof Step.Tick) {
            n++;
        }
        return n;
    }
}
