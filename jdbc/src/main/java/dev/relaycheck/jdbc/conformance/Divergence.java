package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.Step;

import java.util.List;

/**
 * The first step at which the SQL relay did something the model did not.
 *
 * @param stepNumber   1-based position in the schedule (schedule steps first, then healing steps)
 * @param modelStep    the step the model took
 * @param modelOutcome what it did in the model
 * @param sql          what the SQL relay did for that step (null: the step could not apply to it)
 * @param differences  how the states after the step differ (empty if only the step or outcome did)
 */
public record Divergence(int stepNumber, Step modelStep, Outcome modelOutcome, Action sql, List<String> differences) {
    public Divergence {
        differences = List.copyOf(differences);
    }

    /** One line: the step, both sides, and the first state difference. */
    public String summary() {
        String sqlSide = sql == null ? "could not take it" : sql.toString();
        String first = differences.isEmpty() ? "" : "; " + differences.get(0)
                + (differences.size() > 1 ? " (+" + (differences.size() - 1) + " more)" : "");
        return "step " + stepNumber + ": model " + modelStep + " -> " + modelOutcome + ", sql " + sqlSide + first;
    }
}
