package dev.relaycheck.code.judge;

import dev.relaycheck.model.Invariant;

/**
 * An invariant a run broke: at which step (its number in the trace, from 1; 0 when the end of the run broke it) and
 * what happened, in a sentence about that trace.
 */
public record Finding(Invariant invariant, int step, String detail) {
    @Override
    public String toString() {
        return invariant + (step > 0 ? " at step " + step : " at the end") + ": " + detail;
    }
}
