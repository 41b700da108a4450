package dev.relaycheck.model;

import dev.relaycheck.model.Step.Tick;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The EVENTUAL_DELIVERY check, as in deterministic simulation testing: from a state, faults stop, the
 * producer and every poller are scheduled round-robin, and the clock moves (past the scenario's tick bound
 * if need be) whenever nobody else can act, until the state is complete or a step bound runs out. Every
 * healing step is judged like any other, so healing can also run into a safety violation (a redelivery
 * that applies twice); it then reports that invariant rather than EVENTUAL_DELIVERY.
 */
public final class Healing {
    private Healing() {
    }

    /**
     * A healing run: the steps it took with what each did (so a trace needs no second run), where it ended,
     * and the violation if it did not complete.
     */
    public record Run(List<Step> steps, List<StepResult> results, RelayState end, Optional<Violation> violation) {
    }

    /**
     * Steps a healing run may take before the state must be complete. It grows with the lease the logic
     * grants, since waiting out a lease takes that many ticks.
     */
    public static int bound(RelayModel model) {
        Scenario scenario = model.scenario();
        return 8 * (scenario.events().size() + 1) * (scenario.pollers().size() + model.grantedLease() + 2);
    }

    /** Empty if {@code from} heals to a complete state; otherwise the EVENTUAL_DELIVERY violation. */
    public static Optional<Violation> check(RelayModel model, RelayState from) {
        return run(model, from).violation();
    }

    /** {@link #check} for a search that judges only {@code judged}: a healing run goes on past what it does not judge. */
    public static Optional<Violation> check(RelayModel model, RelayState from, Set<Invariant> judged) {
        return run(model, from, judged).violation();
    }

    /** Runs the healing phase from {@code from}, recording its steps. */
    public static Run run(RelayModel model, RelayState from) {
        return run(model, from, EnumSet.allOf(Invariant.class));
    }

    /**
     * Runs the healing phase from {@code from}, judging only {@code judged}: it stops at the first of those that
     * breaks, and reports EVENTUAL_DELIVERY only where it is judged.
     */
    public static Run run(RelayModel model, RelayState from, Set<Invariant> judged) {
        Scenario scenario = model.scenario();
        RelayState s = from;
        List<Step> taken = new ArrayList<>();
        List<StepResult> results = new ArrayList<>();
        int turn = 0;
        int bound = bound(model);
        while (taken.size() < bound && !Invariants.isComplete(scenario, s)) {
            List<Step> steps = model.enabledWithoutFaults(s);
            steps.removeIf(x -> x instanceof Tick);
            Step next = steps.isEmpty() ? new Tick() : steps.get(turn++ % steps.size());
            StepResult r = model.applyEnabled(s, next);
            taken.add(next);
            results.add(r);
            List<Violation> broke = Invariants.check(scenario, model.logic().tokenPolicy(), s, next, r);
            broke.removeIf(v -> !judged.contains(v.invariant()));
            s = r.state();
            if (!broke.isEmpty()) {
                return new Run(taken, results, s, Optional.of(broke.get(0))); // healing ran into a safety violation
            }
        }
        if (Invariants.isComplete(scenario, s) || !judged.contains(Invariant.EVENTUAL_DELIVERY)) {
            return new Run(taken, results, s, Optional.empty());
        }
        return new Run(taken, results, s, Optional.of(new Violation(Invariant.EVENTUAL_DELIVERY, "after " + bound
                + " fault-free fair steps (clock now " + s.clock() + "): " + Invariants.whyIncomplete(scenario, s))));
    }
}
