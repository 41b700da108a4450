package dev.relaycheck.checker.trace;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Violation;

import java.util.List;
import java.util.OptionalLong;

/**
 * A violation with everything needed to show and replay it.
 *
 * @param logic     the logic that broke
 * @param scenario  the scenario it broke in (possibly shrunk: fewer pollers or events than the named one)
 * @param violation the invariant and what broke it
 * @param path      the explored schedule; for EVENTUAL_DELIVERY the healing phase follows it
 * @param trace     the path and any healing steps, executed, with states
 * @param seed      the seed of the random walk that found it, if one did
 * @param foundBy   strategy name: bfs, random, pct
 */
public record Counterexample(RelayLogic logic, Scenario scenario, Violation violation, List<Step> path,
                             List<TraceStep> trace, OptionalLong seed, String foundBy) {
    public Counterexample {
        path = List.copyOf(path);
        trace = List.copyOf(trace);
    }

    public Invariant invariant() {
        return violation.invariant();
    }

    public boolean isLiveness() {
        return violation.invariant() == Invariant.EVENTUAL_DELIVERY;
    }
}
