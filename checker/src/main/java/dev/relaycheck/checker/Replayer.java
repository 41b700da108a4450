package dev.relaycheck.checker;

import dev.relaycheck.model.IllegalStepException;
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
 */
public final class Replayer {
    private Replayer() {
    }

    /**
     * What the replay found: VIOLATION (reproduced), CLEAN (no longer reproduces) or NON_DETERMINISM (two runs of
     * the schedule differ); the CLI turns it into the exit code.
     */
    public record Result(Verdict verdict, String report) {
    }

    public static Result replay(ReplayRecord record, RelayLogic logic) {
        if (!record.logicId().equals(logic.id())) {
            throw new UsageException("this replay record is for logic '" + record.logicId() + "', not '" + logic.id()
                    + "' (pass --logic " + record.logicId() + ", or omit --logic)");
        }
        RelayModel model = new RelayModel(logic, record.scenario());
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
        Judge.Judgement j = Judge.judge(model, record.steps(), true);
        if (j.violation().isEmpty() || j.violation().get().invariant() != record.invariant()) {
            report.append("NOT REPRODUCED: every step matched, but ").append(record.invariant()).append(" did not break")
                    .append(j.violation().map(v -> " (" + v.invariant() + " did)").orElse("")).append('\n');
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
