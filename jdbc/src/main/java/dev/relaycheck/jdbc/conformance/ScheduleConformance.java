package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.jdbc.relay.RelayTraits;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Drives one schedule through the pure model and the SQL relay side by side, one step at a time. After
 * every step it compares the step the SQL relay took, its outcome and the whole state rebuilt from the
 * tables with the model's, and judges the SQL side with the model's invariants (state and transition).
 * Then comes a healing phase (faults stop, everyone runs fairly, the clock moves past every lease) after
 * which the SQL relay must be complete: every event DELIVERED, applied exactly once.
 *
 * <p>A divergence does not stop the run: the SQL relay keeps following the schedule's actors, so a broken
 * relay is driven on until it breaks an invariant, which is then named.
 */
public final class ScheduleConformance {
    private final SqlWorld relay;
    private final RelayModel model;
    private final Scenario scenario;
    private final Trace trace;

    /** Receives every step, for replay output. */
    public interface Trace {
        void step(int number, String phase, Step modelStep, Outcome modelOutcome, Action sql, List<String> differences);

        Trace NONE = (n, phase, step, outcome, sql, diff) -> { };
    }

    private final RelayTraits traits;
    private java.util.Set<Invariant> judged = java.util.EnumSet.allOf(Invariant.class);
    private Divergence divergence;
    private Violation violation;
    private Violation unpromised;
    private int violationStep;
    private final Set<Witness> witnesses = EnumSet.noneOf(Witness.class);
    private final SortedMap<String, Integer> outcomeKinds = new TreeMap<>();
    private int number;
    private RelayState modelState;
    private RelayState sqlState;
    /** The SQL side's steps with the states read back around each: a failure's swimlane. */
    private final List<SqlFinding.Observed> observed = new ArrayList<>();
    private int culprit = -1;

    public ScheduleConformance(SqlWorld relay, RelayModel model, Trace trace) {
        this.relay = relay;
        this.model = model;
        this.scenario = model.scenario();
        this.trace = trace;
        this.traits = relay.relay().traits();
    }

    /**
     * Judges only {@code invariants} (a property check's): a violation of another fails nothing here, and the schedule
     * goes on through it.
     */
    public ScheduleConformance judging(java.util.Set<Invariant> invariants) {
        judged = java.util.EnumSet.copyOf(invariants);
        return this;
    }

    /** Runs {@code schedule} (made by the model's random walk from {@code seed}) and then heals. */
    public ScheduleResult run(long seed, List<Step> schedule) {
        relay.reset();
        modelState = model.initial();
        sqlState = relay.snapshot();
        List<String> initial = SqlStateDiff.between(modelState, sqlState);
        if (!initial.isEmpty()) {
            divergence = new Divergence(0, null, null, null, initial);
        }
        for (Step planned : schedule) {
            Step step = asEnabled(planned);
            if (step != null && !both(step, "schedule")) {
                return result(seed);
            }
        }
        heal();
        return result(seed);
    }

    /**
     * The schedule's step as the model can take it now. The walk was made by the model's own choices; once the
     * model followed a relay's other claim ({@link #followUnorderedClaim}), a planned step may name another row
     * or token: the actor then takes its own step of the same kind, and a step with no counterpart is left out
     * (null). Without such a claim every planned step is enabled as it is.
     */
    private Step asEnabled(Step planned) {
        List<Step> enabled = model.enabled(modelState);
        if (enabled.contains(planned)) {
            return planned;
        }
        for (Step e : enabled) {
            if (e.getClass() == planned.getClass() && Objects.equals(e.actor(), planned.actor())) {
                return e;
            }
        }
        return null;
    }

    /** Applies a model-chosen step to both sides; false once the SQL side broke an invariant. */
    private boolean both(Step step, String phase) {
        number++;
        StepResult m = model.applyEnabled(modelState, step);
        Action a = relay.apply(step);
        m = followUnorderedClaim(step, m, a);
        RelayState after = relay.snapshot();
        List<String> diff = SqlStateDiff.between(m.state(), after);
        boolean same = a != null && a.step().equals(step) && a.outcome().equals(m.outcome()) && diff.isEmpty();
        if (!same && divergence == null) {
            divergence = new Divergence(number, step, m.outcome(), a, diff);
            culprit = observed.size(); // this step's index once judged: until an invariant breaks, the swimlane's mark
        }
        trace.step(number, phase, step, m.outcome(), a, diff);
        modelState = m.state();
        return judge(a, after, phase);
    }

    /**
     * A relay that does not promise per-aggregate order may claim any claimable rows (gruelbox selects due
     * entries without ORDER BY): when it claimed others than the model's first ones, the model takes the
     * relay's choice if its logic allows that choice, and the comparison goes on from there.
     */
    private StepResult followUnorderedClaim(Step step, StepResult m, Action a) {
        if (traits.promised().contains(Invariant.AGGREGATE_ORDER) || !(step instanceof Step.Claim c) || a == null
                || !(a.outcome() instanceof Outcome.Claimed sql) || !(m.outcome() instanceof Outcome.Claimed mine)) {
            return m;
        }
        List<String> chosen = sql.grants().stream().map(Outcome.Grant::eventId).toList();
        if (chosen.equals(mine.grants().stream().map(Outcome.Grant::eventId).toList())) {
            return m;
        }
        return model.claimOf(modelState, c, chosen).orElse(m);
    }

    /** Checks the SQL side's transition and new state; false once an invariant broke. */
    private boolean judge(Action a, RelayState after, String phase) {
        if (a != null) {
            observed.add(SqlFinding.Observed.of(a, sqlState, after, phase));
            witnesses.addAll(Witness.seenIn(a.outcome()));
            outcomeKinds.merge(a.outcome().kind(), 1, Integer::sum);
            List<Violation> all = Invariants.check(scenario, traits.tokens(), sqlState, a.step(), new StepResult(after, a.outcome()));
            List<Violation> broke = traits.failing(all).stream().filter(v -> judged.contains(v.invariant())).toList();
            if (!broke.isEmpty()) {
                violation = broke.get(0);
                violationStep = number;
                culprit = observed.size() - 1;
            }
            if (unpromised == null && !traits.unpromised(all).isEmpty()) {
                unpromised = traits.unpromised(all).get(0); // reported, never a failure: the relay does not promise it
            }
        }
        sqlState = after;
        return violation == null;
    }

    /**
     * The healing phase. While the SQL relay still agrees with the model, both follow the model's healing
     * policy (Healing: fault-free steps round-robin, a Tick only when nothing else is enabled) and keep
     * being compared; after a divergence the SQL relay heals on its own (its actors round-robin, a Tick
     * after a full round in which nobody did anything).
     */
    private void heal() {
        int bound = number + Healing.bound(model);
        int turn = 0;
        while (divergence == null && number < bound && !Invariants.isComplete(scenario, modelState)) {
            List<Step> steps = model.enabledWithoutFaults(modelState);
            steps.removeIf(s -> s instanceof Step.Tick);
            Step next = steps.isEmpty() ? new Step.Tick() : steps.get(turn++ % steps.size());
            if (!both(next, "healing")) {
                return;
            }
        }
        healSqlAlone(bound);
        if (violation == null && !traits.complete(scenario, sqlState)) {
            Violation v = new Violation(Invariant.EVENTUAL_DELIVERY, "after " + Healing.bound(model)
                    + " fault-free fair steps (clock now " + relay.clock() + "): " + Invariants.whyIncomplete(scenario, sqlState));
            if (traits.fails(Invariant.EVENTUAL_DELIVERY) && judged.contains(Invariant.EVENTUAL_DELIVERY)) {
                violation = v;
                violationStep = number;
                culprit = -1; // the state at the end broke it, no single step
            } else if (!traits.fails(Invariant.EVENTUAL_DELIVERY) && unpromised == null) {
                unpromised = v; // reported, never a failure (one promised but not judged here is neither)
            }
        }
    }

    private boolean clean() {
        return divergence == null && violation == null;
    }

    private void healSqlAlone(int bound) {
        List<String> actors = new ArrayList<>();
        actors.add(Scenario.PRODUCER);
        actors.addAll(scenario.pollers());
        int idle = 0;
        int turn = 0;
        while (number < bound && !traits.complete(scenario, sqlState)) {
            Action a;
            number++;
            if (idle >= actors.size()) {
                a = relay.apply(new Step.Tick()); // a full round in which nobody did anything: time moves
                idle = 0;
            } else {
                a = relay.act(actors.get(turn++ % actors.size()));
            }
            boolean didNothing = a == null || Objects.equals(a.outcome(), new Outcome.Claimed(List.of()));
            idle = didNothing ? idle + 1 : 0;
            RelayState after = relay.snapshot();
            trace.step(number, "healing (sql alone)", null, null, a, List.of());
            if (!judge(a, after, "healing")) {
                return;
            }
        }
    }

    private ScheduleResult result(long seed) {
        return new ScheduleResult(scenario.name(), seed, number, divergence, violation, violationStep, witnesses, outcomeKinds,
                unpromised, clean() ? List.of() : observed, Math.min(culprit, observed.size() - 1));
    }
}
