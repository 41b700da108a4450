package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;

import java.util.List;
import java.util.Set;
import java.util.SortedMap;

/**
 * One schedule driven through the model and the SQL relay.
 *
 * @param scenario       scenario name
 * @param seed           the walk seed (the schedule is {@code RandomSchedules.walk(model, seed, length)})
 * @param steps          steps executed on the SQL side, healing included
 * @param divergence     the first divergence from the model, or null
 * @param violation      the first invariant the SQL relay's state or transition broke, or null
 * @param violationStep  the step number of that violation (0 if none)
 * @param witnesses      interesting outcomes the SQL relay reached
 * @param outcomeKinds   how many SQL steps had each outcome kind (CLAIMED, APPLIED, DUPLICATE, STALE, ...)
 * @param unpromised     the first violation of an invariant the relay does not promise (reported, not a failure), or null
 * @param observed       when it failed: the SQL side's steps with the states read back around each (empty when clean)
 * @param culprit        the index in {@code observed} of the step that broke the invariant (or first diverged), -1 when
 *                       the state at the end broke it
 */
public record ScheduleResult(String scenario, long seed, int steps, Divergence divergence, Violation violation,
                             int violationStep, Set<Witness> witnesses, SortedMap<String, Integer> outcomeKinds,
                             Violation unpromised, List<SqlFinding.Observed> observed, int culprit) {
    public ScheduleResult {
        observed = List.copyOf(observed);
    }

    public boolean clean() {
        return divergence == null && violation == null;
    }

    /** One line for reports. */
    public String summary() {
        StringBuilder b = new StringBuilder("scenario " + scenario + " seed " + seed);
        if (violation != null) {
            b.append(": ").append(violation.invariant()).append(" at step ").append(violationStep).append(": ")
                    .append(violation.detail());
        }
        if (divergence != null) {
            b.append(violation != null ? "; first diverged at " : ": diverged at ").append(divergence.summary());
        }
        if (clean()) {
            b.append(": conforms (").append(steps).append(" steps)");
        }
        if (unpromised != null) {
            b.append("; not promised: ").append(unpromised.invariant()).append(": ").append(unpromised.detail());
        }
        return b.toString();
    }
}
