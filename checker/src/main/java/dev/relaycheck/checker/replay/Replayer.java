package dev.relaycheck.checker.replay;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.checker.space.Fingerprint;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.Judge;
import dev.relaycheck.checker.trace.TraceFormatter;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.IllegalStepException;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Re-executes a replay record and verifies it step by step: each step must be enabled and must have the
 * recorded outcome, and the record's invariant must break at the end. It runs the schedule twice and
 * compares state fingerprints after every step: a difference means the logic under test is not
 * deterministic, which makes every result about it unreliable.
 *
 * <p>A record of a {@link LogicFault} replays its steps, then does what the search was doing when the logic
 * failed (list the steps, take the recorded one, or heal): if the logic fails again, the fault reproduced
 * (exit 6 for a LOGIC-ERROR, 7 for NON-DETERMINISM); if it answers everything, it no longer does (exit 0).
 * Replaying any record, a logic that throws or answers one question two ways is reported as such, with its
 * exit code, rather than as a verdict on the invariants. A fault found by re-asking a whole search's questions
 * after it ended ({@link LogicFault.Doing#RECHECKING}) is NOT REPRODUCED, saying so: a replay asks none of them.
 */
public final class Replayer {
    private Replayer() {
    }

    /**
     * What the replay found: VIOLATION (reproduced), CLEAN (no longer reproduces), NON_DETERMINISM (two runs of
     * the schedule differ, or the logic answered one question two ways) or LOGIC_ERROR (the logic threw); the CLI
     * turns it into the exit code.
     */
    public record Result(Verdict verdict, String report) {
    }

    public static Result replay(ReplayRecord record, RelayLogic logic) {
        if (!record.logicId().equals(logic.id())) {
            throw new UsageException("this replay record is for logic '" + record.logicId() + "', not '" + logic.id()
                    + "' (pass --logic " + record.logicId() + ", or omit --logic)");
        }
        RelayModel model = new RelayModel(CheckedLogic.of(logic), record.scenario());
        if (record.fault().isPresent()) {
            return replayFault(model, record, record.fault().get());
        }
        try {
            return replayViolation(model, record);
        } catch (LogicFailure f) {
            return failed(f, "replaying the record's schedule", "");
        }
    }

    /** The verdict of a logic fault: LOGIC-ERROR or NON-DETERMINISM. */
    public static Verdict verdict(LogicFailure f) {
        return f instanceof dev.relaycheck.model.NonDeterminism ? Verdict.NON_DETERMINISM : Verdict.LOGIC_ERROR;
    }

    private static Result failed(LogicFailure f, String where, String expected) {
        return new Result(verdict(f), f.line() + "\n  where:      " + where + "\n" + expected);
    }

    private static Result replayFault(RelayModel model, ReplayRecord record, ReplayRecord.Fault expected) {
        if (expected.doing() == LogicFault.Doing.RECHECKING) {
            // the questions re-asked were those of the whole search, which a fresh process has never asked
            return new Result(Verdict.CLEAN, "NOT REPRODUCED: this " + expected.verdict() + " in " + expected.method()
                    + " was found " + LogicFault.RECHECKING_WHERE + "; a replay asks no such questions, so it cannot "
                    + "reproduce it: run the search again (the same explore or random command) to see it\n");
        }
        Optional<String> divergence;
        try {
            divergence = verifySteps(model, record);
        } catch (LogicFailure f) {
            return failed(f, "replaying the record's steps, before the recorded fault", "REPRODUCED " + f.verdict()
                    + " (earlier than recorded: " + expected.verdict() + " in " + expected.method() + ")\n");
        }
        if (divergence.isPresent()) {
            return new Result(Verdict.CLEAN, "NOT REPRODUCED: " + divergence.get() + '\n'
                    + "The logic no longer takes this schedule; if you changed it on purpose, the fault may be fixed.\n");
        }
        RelayState s = model.initial();
        for (Step step : record.steps()) {
            s = model.applyEnabled(s, step).state(); // answered once already: the memory answers the same
        }
        try {
            List<Step> enabled = model.enabled(s);
            if (expected.doing() == LogicFault.Doing.TAKING_STEP) {
                Step step = expected.step().orElseThrow();
                if (!enabled.contains(step)) {
                    return new Result(Verdict.CLEAN, "NOT REPRODUCED: step " + (record.steps().size() + 1) + ": "
                            + step + " is no longer enabled; enabled were " + enabled + '\n');
                }
                model.applyEnabled(s, step);
            } else if (expected.doing() == LogicFault.Doing.HEALING) {
                Healing.run(model, s);
            }
        } catch (LogicFailure f) {
            LogicFault again = LogicFault.of(model, record.steps(), expected.doing(), expected.step(), f, record.seed(),
                    record.foundBy());
            boolean same = f.verdict().equals(expected.verdict()) && f.method().equals(expected.method());
            return new Result(verdict(f), again.format() + "REPRODUCED " + f.verdict() + ": all " + record.steps().size()
                    + " steps matched their recorded outcomes, then the logic " + (f instanceof dev.relaycheck.model.LogicError
                    ? "still throws" : "still answers one question two ways")
                    + (same ? "" : " (the record expected " + expected.verdict() + " in " + expected.method() + ")") + '\n');
        }
        return new Result(Verdict.CLEAN, "NOT REPRODUCED: all " + record.steps().size() + " steps matched, and the logic "
                + "answered every question " + LogicFault.where(expected.doing(), record.steps().size(), expected.step())
                + " without failing (the record expected " + expected.verdict() + " in " + expected.method() + ")\n");
    }

    private static Result replayViolation(RelayModel model, ReplayRecord record) {
        RelayLogic logic = model.logic();
        StringBuilder report = new StringBuilder();
        Optional<String> divergence = verifySteps(model, record);
        if (divergence.isPresent()) {
            report.append("NOT REPRODUCED: ").append(divergence.get()).append('\n');
            report.append("The logic no longer takes this schedule; if you changed it on purpose, the race may be fixed.\n");
            return new Result(Verdict.CLEAN, report.toString());
        }
        Optional<String> nondeterminism = compareTwoRuns(model, record.steps());
        if (nondeterminism.isPresent()) {
            return new Result(Verdict.NON_DETERMINISM, "NON-DETERMINISM in logic " + logic.id() + ": " + nondeterminism.get() + '\n');
        }
        // the record's invariant alone: a check of one property records a trace that may pass another's violation
        Judge.Judgement j = Judge.judge(model, record.steps(), true, java.util.EnumSet.of(record.invariant()));
        if (j.violation().isEmpty()) {
            Judge.Judgement any = Judge.judge(model, record.steps(), true);
            report.append("NOT REPRODUCED: every step matched, but ").append(record.invariant()).append(" did not break")
                    .append(any.violation().map(v -> " (" + v.invariant() + " did)").orElse("")).append('\n');
            return new Result(Verdict.CLEAN, report.toString());
        }
        Counterexample cx = new Counterexample(logic, record.scenario(), j.violation().get(), record.steps(), j.trace(),
                record.seed(), record.foundBy());
        report.append(TraceFormatter.format(cx));
        report.append("REPRODUCED ").append(record.invariant()).append(": all ").append(record.steps().size())
                .append(" steps matched their recorded outcomes; two runs agreed on every state fingerprint\n");
        return new Result(Verdict.VIOLATION, report.toString());
    }

    private static Optional<String> verifySteps(RelayModel model, ReplayRecord record) {
        RelayState s = model.initial();
        for (int i = 0; i < record.steps().size(); i++) {
            Step expected = record.steps().get(i);
            List<Step> enabled = model.enabled(s);
            if (!enabled.contains(expected)) {
                return Optional.of("step " + (i + 1) + ": expected " + expected + ", got no such step; enabled were " + enabled);
            }
            StepResult r = model.applyEnabled(s, expected);
            String outcome = r.outcome().toString();
            if (!outcome.equals(record.outcomes().get(i))) {
                return Optional.of("step " + (i + 1) + ": expected " + expected + " => " + record.outcomes().get(i)
                        + ", got " + expected + " => " + outcome);
            }
            s = r.state();
        }
        return Optional.empty();
    }

    private static Optional<String> compareTwoRuns(RelayModel model, List<Step> steps) {
        List<Long> first = fingerprints(model, steps);
        List<Long> second = fingerprints(model, steps);
        for (int i = 0; i < first.size(); i++) {
            if (!first.get(i).equals(second.get(i))) {
                return Optional.of("step " + i + " (" + (i == 0 ? "initial state" : steps.get(i - 1))
                        + ") reached different states in two runs of the same schedule");
            }
        }
        return Optional.empty();
    }

    private static List<Long> fingerprints(RelayModel model, List<Step> steps) {
        List<Long> out = new ArrayList<>();
        RelayState s = model.initial();
        out.add(Fingerprint.of(s));
        for (Step step : steps) {
            try {
                s = model.apply(s, step).state();
            } catch (IllegalStepException e) {
                out.add(-1L);
                return out;
            }
            out.add(Fingerprint.of(s));
        }
        return out;
    }
}
