package dev.relaycheck.checker.trace;

import dev.relaycheck.model.Healing;
import dev.relaycheck.model.IllegalStepException;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Executes a schedule strictly and judges it: every transition and every state against the invariants (all, or
 * those a search judges), stopping at the first step that breaks one; if none broke and healing is asked for, the
 * EVENTUAL_DELIVERY phase.
 */
public final class Judge {
    private Judge() {
    }

    /**
     * The executed trace and the first violation, if any; {@code violations}: every invariant the step that stopped it
     * broke (one step may break several), the first of them {@code violation}.
     */
    public record Judgement(List<TraceStep> trace, Optional<Violation> violation, int pathSteps, List<Violation> violations) {
        Judgement(List<TraceStep> trace, List<Violation> violations, int pathSteps) {
            this(trace, violations.stream().findFirst(), pathSteps, List.copyOf(violations));
        }

        /** The violation of {@code invariant} where the judgement stopped, if that step broke it. */
        public Optional<Violation> of(Invariant invariant) {
            return violations.stream().filter(v -> v.invariant() == invariant).findFirst();
        }
    }

    public static Judgement judge(RelayModel model, List<Step> path, boolean heal) {
        return judge(model, path, heal, EnumSet.allOf(Invariant.class));
    }

    /** {@link #judge(RelayModel, List, boolean)} judging only {@code judged}: a step that breaks none of them goes on. */
    public static Judgement judge(RelayModel model, List<Step> path, boolean heal, Set<Invariant> judged) {
        List<TraceStep> trace = new ArrayList<>();
        RelayState s = model.initial();
        List<Violation> initial = Invariants.checkState(model.scenario(), s);
        initial.removeIf(v -> !judged.contains(v.invariant()));
        if (!initial.isEmpty()) {
            return new Judgement(trace, initial, 0);
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
            v.removeIf(x -> !judged.contains(x.invariant()));
            s = r.state();
            if (!v.isEmpty()) {
                return new Judgement(trace, v, n);
            }
        }
        if (!heal) {
            return new Judgement(trace, List.of(), n);
        }
        Healing.Run healing = Healing.run(model, s, judged);
        for (int i = 0; i < healing.steps().size(); i++) {
            StepResult r = healing.results().get(i);
            trace.add(new TraceStep(++n, healing.steps().get(i), r.outcome(), s, r.state(), true));
            s = r.state();
        }
        return new Judgement(trace, healing.violation().stream().toList(), path.size());
    }
}
