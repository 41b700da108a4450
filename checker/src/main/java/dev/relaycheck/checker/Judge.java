package dev.relaycheck.checker;

import dev.relaycheck.checker.trace.TraceStep;

import dev.relaycheck.model.Healing;
import dev.relaycheck.model.IllegalStepException;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Executes a schedule strictly and judges it: every transition and every state against the invariants,
 * stopping at the first violation; if none broke and healing is asked for, the EVENTUAL_DELIVERY phase.
 */
public final class Judge {
    private Judge() {
    }

    /** The executed trace and the first violation, if any. */
    public record Judgement(List<TraceStep> trace, Optional<Violation> violation, int pathSteps) {
    }

    public static Judgement judge(RelayModel model, List<Step> path, boolean heal) {
        List<TraceStep> trace = new ArrayList<>();
        RelayState s = model.initial();
        List<Violation> initial = Invariants.checkState(model.scenario(), s);
        if (!initial.isEmpty()) {
            return new Judgement(trace, Optional.of(initial.get(0)), 0);
        }
        int n = 0;
        for (Step step : path) {
            n++;
            if (!model.enabled(s).contains(step)) {
                throw new IllegalStepException("step " + n + ": " + step + " is not enabled; enabled: " + model.enabled(s));
            }
            StepResult r = model.applyEnabled(s, step);
            trace.add(new TraceStep(n, step, r.outcome(), s, r.state(), false));
            List<Violation> v = Invariants.check(model.scenario(), model.logic().tokenPolicy(), s, step, r);
            s = r.state();
            if (!v.isEmpty()) {
                return new Judgement(trace, Optional.of(v.get(0)), n);
            }
        }
        if (!heal) {
            return new Judgement(trace, Optional.empty(), n);
        }
        Healing.Run healing = Healing.run(model, s);
        for (int i = 0; i < healing.steps().size(); i++) {
            StepResult r = healing.results().get(i);
            trace.add(new TraceStep(++n, healing.steps().get(i), r.outcome(), s, r.state(), true));
            s = r.state();
        }
        return new Judgement(trace, healing.violation(), path.size());
    }
}
