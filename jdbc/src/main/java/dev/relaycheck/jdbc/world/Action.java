package dev.relaycheck.jdbc.world;

import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.Step;

/**
 * What the SQL relay did in one step, in the model's terms: the step it took (which the conformance check
 * compares with the step the model took) and what the step observably did.
 */
public record Action(Step step, Outcome outcome) {
    @Override
    public String toString() {
        return step + " -> " + outcome;
    }
}
