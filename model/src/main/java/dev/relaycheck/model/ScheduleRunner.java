package dev.relaycheck.model;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a schedule (a list of steps) through a model, checking every transition and state, and collects
 * what happened. Stops at the first step that breaks an invariant.
 */
public final class ScheduleRunner {
    private ScheduleRunner() {
    }

    /** One executed step; {@code skipped} when a lenient run passed over a step the logic did not offer. */
    public record Executed(int number, Step step, Outcome outcome, RelayState after, List<Violation> violations,
                           boolean skipped) {
    }

    /** The whole run. */
    public record Run(List<Executed> steps, List<Violation> violations, RelayState finalState, Set<Witness> witnesses) {
        public boolean broke(Invariant invariant) {
            return violations.stream().anyMatch(v -> v.invariant() == invariant);
        }

        public boolean clean() {
            return violations.isEmpty();
        }
    }

    /** Strict: every step must be enabled where it is applied, else {@link IllegalStepException}. */
    public static Run run(RelayModel model, List<Step> schedule) {
        return run(model, schedule, false);
    }

    /**
     * Lenient: a step the logic does not offer in that state (for instance the second half of a split
     * transaction, on a logic that does it in one) is recorded as skipped. A claim that finds nothing to
     * claim is a legal no-op in both modes.
     */
    public static Run runLenient(RelayModel model, List<Step> schedule) {
        return run(model, schedule, true);
    }

    private static Run run(RelayModel model, List<Step> schedule, boolean lenient) {
        RelayState s = model.initial();
        List<Executed> out = new ArrayList<>();
        Set<Witness> witnesses = EnumSet.noneOf(Witness.class);
        int n = 0;
        for (Step step : schedule) {
            n++;
            List<Step> enabled = model.enabled(s);
            if (!enabled.contains(step)) {
                if (isNoOpClaim(model, s, step)) {
                    out.add(new Executed(n, step, new Outcome.Claimed(List.of()), s, List.of(), false));
                    continue;
                }
                if (lenient) {
                    out.add(new Executed(n, step, null, s, List.of(), true));
                    continue;
                }
                throw new IllegalStepException("step " + n + ": " + step + " is not enabled; enabled: " + enabled);
            }
            StepResult r = model.applyEnabled(s, step);
            List<Violation> v = Invariants.check(model.scenario(), model.logic().tokenPolicy(), s, step, r);
            witnesses.addAll(Witness.seenIn(r.outcome()));
            out.add(new Executed(n, step, r.outcome(), r.state(), v, false));
            s = r.state();
            if (!v.isEmpty()) {
                return new Run(out, v, s, witnesses);
            }
        }
        return new Run(out, List.of(), s, witnesses);
    }

    /** An idle poller's claim when nothing is claimable: it runs and changes nothing. */
    private static boolean isNoOpClaim(RelayModel model, RelayState s, Step step) {
        return step instanceof Step.Claim c && s.poller(model.scenario().pollerIndex(c.poller())).isIdle()
                && RelayTransactions.claimableIds(model.logic(), s, model.scenario().batch(),
                        model.scenario().instanceId(c.poller())).isEmpty();
    }
}
