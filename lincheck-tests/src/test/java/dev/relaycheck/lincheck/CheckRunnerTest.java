package dev.relaycheck.lincheck;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The runner's handling of a Lincheck that found a failure but crashed rendering it. */
class CheckRunnerTest {

    @Test
    void aThrowFromInsideLincheckAssertionErrorIsAReportCrash() {
        IndexOutOfBoundsException crash = new IndexOutOfBoundsException("Index 3 out of bounds for length 2");
        crash.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("org.jetbrains.kotlinx.lincheck.trace.TraceNodesKt", "traceToTree", "TraceNodes.kt", 217),
                new StackTraceElement("org.jetbrains.lincheck.LincheckAssertionError", "<init>", "LincheckAssertionError.kt", 16)});
        RunOutcome o = LincheckFailures.capture(() -> {
            throw crash;
        }, "passed", "");
        assertThat(o.status()).isEqualTo(RunOutcome.Status.REPORT_CRASHED);
        assertThat(o.detail()).startsWith("Lincheck found a failure but crashed rendering it: java.lang.IndexOutOfBoundsException");
        assertThat(LincheckFailures.capture(() -> {
            throw new IllegalStateException("bad configuration");
        }, "passed", "").status()).isEqualTo(RunOutcome.Status.OTHER_FAILURE);
    }

    /**
     * Seen under .ci/saturated: Lincheck's join on its threads with what was left of its hang-detection deadline, which
     * the loaded machine had already passed. Time-based, so a hang (rerun, then inconclusive), never a failure; the same
     * exception from anywhere else stays a failure of the check.
     */
    @Test
    void aNegativeJoinTimeInsideLincheckIsAHangNotAFailure(@TempDir Path dir) {
        IllegalArgumentException late = new IllegalArgumentException("timeout value is negative");
        late.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("java.lang.Thread", "join", "Thread.java", 1300),
                new StackTraceElement("org.jetbrains.kotlinx.lincheck.strategy.ThreadScheduler", "awaitThreadFinish", "ThreadScheduler.kt", 411),
                new StackTraceElement("org.jetbrains.kotlinx.lincheck.strategy.managed.ManagedStrategy", "awaitUserThreads", "ManagedStrategy.kt", 789)});
        RunOutcome o = LincheckFailures.capture(() -> {
            throw late;
        }, "passed", "");
        assertThat(o.status()).isEqualTo(RunOutcome.Status.HUNG);
        assertThat(o.detail()).contains("ran past its deadline").contains("inconclusive");
        assertThat(LincheckFailures.capture(() -> {
            throw new IllegalArgumentException("timeout value is negative");
        }, "passed", "").status()).isEqualTo(RunOutcome.Status.OTHER_FAILURE);

        // the correct store: rerun after the hang; late on every try is INCONCLUSIVE, never FAILED
        CheckRunner runner = new CheckRunner(LincheckBudget.DEFAULT, new ResultFiles(dir));
        Scripted alwaysLate = new Scripted(o, o, o);
        CheckRunner.Ran ran = runner.run(new Checks.Planned(alwaysLate, LincheckTargets.byId("correct").orElseThrow()));
        assertThat(alwaysLate.calls).isEqualTo(1 + CheckRunner.HANG_RETRIES);
        assertThat(ran.result().verdict()).isEqualTo("INCONCLUSIVE");
        Scripted lateOnce = new Scripted(o, RunOutcome.passed("fine"));
        assertThat(runner.run(new Checks.Planned(lateOnce, LincheckTargets.byId("correct").orElseThrow())).result().verdict()).isEqualTo("PASS");
    }

    @Test
    void aBrokenTargetIsRunOnceMoreAndTheCorrectOneNever(@TempDir Path dir) {
        RunOutcome crashed = new RunOutcome(RunOutcome.Status.REPORT_CRASHED, "Lincheck found a failure but crashed rendering it: x", "trace");
        RunOutcome found = LincheckFailures.classify("= Invalid execution results =\n", "SINGLE_LIVE_LEASE");
        CheckRunner runner = new CheckRunner(LincheckBudget.DEFAULT, new ResultFiles(dir));

        Scripted broken = new Scripted(crashed, found);
        CheckRunner.Ran ran = runner.run(new Checks.Planned(broken, LincheckTargets.byId("check-then-act-claim-store").orElseThrow()));
        assertThat(broken.calls).isEqualTo(2);
        assertThat(ran.result().verdict()).isEqualTo("CAUGHT");
        assertThat(ran.result().detail()).startsWith("retried once: Lincheck found a failure but crashed rendering it: x; non-linearizable");

        Scripted correct = new Scripted(crashed, RunOutcome.passed("fine"));
        ran = runner.run(new Checks.Planned(correct, LincheckTargets.byId("correct").orElseThrow()));
        assertThat(correct.calls).isEqualTo(1);
        assertThat(ran.result().verdict()).isEqualTo("FAILED");
    }

    /** A check that answers from a script, so the runner's logic is tested without Lincheck. */
    private static final class Scripted implements LincheckCheck {
        private final Deque<RunOutcome> answers;
        int calls;

        Scripted(RunOutcome... answers) {
            this.answers = new ArrayDeque<>(List.of(answers));
        }

        @Override
        public String id() {
            return "scripted";
        }

        @Override
        public String description() {
            return "answers from a script";
        }

        @Override
        public List<Target> targets() {
            return LincheckTargets.all();
        }

        @Override
        public RunOutcome run(Target target, LincheckBudget budget) {
            calls++;
            return answers.removeFirst();
        }
    }
}
