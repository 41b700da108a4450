package dev.relaycheck.checker;

import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;

/**
 * One numbered line of a counterexample.
 *
 * @param healing true for steps of the fault-free healing phase that follows the explored path
 */
public record TraceStep(int number, Step step, Outcome outcome, RelayState before, RelayState after, boolean healing) {
}
