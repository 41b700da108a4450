package dev.relaycheck.model;

import dev.relaycheck.model.Step.Tick;

import java.util.List;
import java.util.Optional;

/**
 * The EVENTUAL_DELIVERY check, as in deterministic simulation testing: from a state, faults stop, the
 * producer and every poller are scheduled round-robin, and the clock moves (past the scenario's tick bound
 * if need be) whenever nobody can act, until the state is complete or a step bound runs out.
 */
public final class Healing {
    private Healing() {
    }

    /** Steps a healing run may take before the state must be complete. */
    public static int bound(Scenario scenario) {
        return 8 * (scenario.events().size() + 1) * (scenario.pollers().size() + scenario.leaseTicks() + 2);
    }

    /** Empty if {@code from} heals to a complete state; otherwise the EVENTUAL_DELIVERY violation. */
    public static Optional<Violation> check(RelayModel model, RelayState from) {
        Scenario scenario = model.scenario();
        RelayState s = from;
        int turn = 0;
        int bound = bound(scenario);
        for (int step = 0; step < bound; step++) {
            if (Invariants.isComplete(scenario, s)) {
                return Optional.empty();
            }
            List<Step> steps = model.enabledWithoutFaults(s);
            steps.removeIf(x -> x instanceof Tick);
            Step next = steps.isEmpty() ? new Tick() : steps.get(turn++ % steps.size());
            s = model.applyEnabled(s, next).state();
        }
        if (Invariants.isComplete(scenario, s)) {
            return Optional.empty();
        }
        return Optional.of(new Violation(Invariant.EVENTUAL_DELIVERY, "after " + bound
                + " fault-free fair steps (clock now " + s.clock() + "): " + Invariants.whyIncomplete(scenario, s)));
    }
}
