package dev.relaycheck.checker.logic;

import dev.relaycheck.checker.trace.StateDiff;
import dev.relaycheck.checker.trace.TraceStep;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.NonDeterminism;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The logic under test broke its contract during a search (it threw, or answered one question two ways),
 * with where: the scenario, the steps that ran before, and what the search was doing when the logic failed.
 * It is a verdict of its own, never a pass and never a silent VACUOUS: nothing else the search found about
 * such a logic can be trusted.
 *
 * @param logic    the logic that failed
 * @param scenario the scenario it failed in
 * @param failure  the question it failed on and how
 * @param path     the steps taken before it failed, each of which ran
 * @param doing    what the search was doing after them
 * @param step     the step being taken, when {@code doing} is {@link Doing#TAKING_STEP}
 * @param trace    the path, executed, with states
 * @param seed     the seed of the walk that found it, if one did
 * @param foundBy  bfs, or the walk strategy and number
 */
public record LogicFault(RelayLogic logic, Scenario scenario, LogicFailure failure, List<Step> path, Doing doing,
                         Optional<Step> step, List<TraceStep> trace, OptionalLong seed, String foundBy) {

    /** What the search asked the logic for when it failed. */
    public enum Doing {
        /** Which steps are enabled (a claim asks isClaimable of every row). */
        LISTING_STEPS,
        /** Taking one step. */
        TAKING_STEP,
        /** The fault-free healing phase of the EVENTUAL_DELIVERY check. */
        HEALING,
        /**
         * Re-asking, after the search ended, every question it had asked ({@link CheckedLogic#recheck}): no steps
         * lead there, and a replay, which asks only its record's questions, cannot reproduce it.
         */
        RECHECKING
    }

    /** What {@link #where()} says of a fault found by {@link Doing#RECHECKING}. */
    public static final String RECHECKING_WHERE = "re-asking every question the search had asked, after it ended";

    public LogicFault {
        path = List.copyOf(path);
        trace = List.copyOf(trace);
    }

    /** The same fault, found by {@code finder}. */
    public LogicFault foundBy(String finder) {
        return new LogicFault(logic, scenario, failure, path, doing, step, trace, seed, finder);
    }

    public boolean isNonDeterminism() {
        return failure instanceof NonDeterminism;
    }

    /** Where, in one line: {@code at step 3, Ack(p1,E1,t1), after 2 steps that ran}. */
    public String where() {
        return where(doing, path.size(), step);
    }

    /** {@link #where()} of a fault after {@code n} steps. */
    public static String where(Doing doing, int n, Optional<Step> step) {
        return switch (doing) {
            case TAKING_STEP -> "at step " + (n + 1) + ", " + step.orElseThrow() + ", after " + n + " steps that ran";
            case LISTING_STEPS -> "listing the steps enabled after step " + n;
            case HEALING -> "in the fault-free healing phase after step " + n;
            case RECHECKING -> RECHECKING_WHERE;
        };
    }

    /**
     * The fault found by a search after {@code path}, re-executed to show it: if the logic fails again on the
     * way (a logic that is not a function may), that earlier failure is the one reported, with the steps
     * before it; else {@code caught}, where the search saw it.
     */
    public static LogicFault of(RelayModel model, List<Step> path, Doing doing, Optional<Step> step, LogicFailure caught,
                         OptionalLong seed, String foundBy) {
        List<TraceStep> trace = new ArrayList<>();
        RelayState s = model.initial();
        for (int i = 0; i < path.size(); i++) {
            try {
                StepResult r = model.applyEnabled(s, path.get(i));
                trace.add(new TraceStep(i + 1, path.get(i), r.outcome(), s, r.state(), false));
                s = r.state();
            } catch (LogicFailure again) {
                return new LogicFault(model.logic(), model.scenario(), again, path.subList(0, i), Doing.TAKING_STEP,
                        Optional.of(path.get(i)), trace, seed, foundBy);
            }
        }
        return new LogicFault(model.logic(), model.scenario(), caught, path, doing, step, trace, seed, foundBy);
    }

    /** A fault found when a search that ended re-asked a checked logic its questions ({@link CheckedLogic#recheck}). */
    public static LogicFault onRecheck(RelayLogic logic, Scenario scenario, LogicFailure failure, String foundBy) {
        return new LogicFault(logic, scenario, failure, List.of(), Doing.RECHECKING, Optional.empty(), List.of(),
                OptionalLong.empty(), foundBy + ", after the search");
    }

    /** The fault as a person reads it, the steps before it as a table. */
    public String format() {
        StringBuilder b = new StringBuilder();
        b.append(failure.line()).append('\n');
        b.append("  scenario:   ").append(scenario.name()).append('\n');
        b.append("  where:      ").append(where()).append('\n');
        b.append("  found by:   ").append(foundBy);
        seed.ifPresent(x -> b.append(" (seed ").append(x).append(')'));
        b.append('\n');
        b.append(String.format("  %3s  %-8s  %-26s  %-40s  %s%n", "#", "actor", "step", "outcome", "state that changed"));
        for (TraceStep t : trace) {
            b.append(String.format("  %3d  %-8s  %-26s  %-40s  %s%n", t.number(), t.step().actor(), t.step(), t.outcome(),
                    String.join("; ", StateDiff.of(scenario, t.before(), t.after()))));
        }
        b.append(String.format("  %3s  %-8s  %-26s  %-40s  %s%n", doing == Doing.TAKING_STEP ? path.size() + 1 : "",
                step.map(Step::actor).orElse(""), step.map(Step::toString).orElse(switch (doing) {
                    case HEALING -> "(healing)";
                    case RECHECKING -> "(re-asking)";
                    default -> "(listing steps)";
                }), failure.verdict(), "<== " + failure.method()));
        return b.toString();
    }
}
