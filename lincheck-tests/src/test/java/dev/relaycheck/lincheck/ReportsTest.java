package dev.relaycheck.lincheck;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading Lincheck's failure text, and the files written from it; the fixture has the shape Lincheck 3.7 prints. */
class ReportsTest {
    private static final String REPORT = String.join("\n",
            "= Invalid execution results =",
            "| -------------------------------------------- |",
            "|      Thread 1      |        Thread 2         |",
            "| -------------------------------------------- |",
            "| claim(1): [E1/t1]  |                         |",
            "| tick(): 1          |                         |",
            "| -------------------------------------------- |",
            "| ack(1, E1): ACKED  | claim(2): [E1/t2]       |",
            "|                    | ack(2, E1): STALE [1,1] |",
            "| -------------------------------------------- |",
            "",
            "Detailed trace:",
            "| ------------------------------------------------------------------------------------------------ |",
            "|                      Thread 1                      |                  Thread 2                   |",
            "| ------------------------------------------------------------------------------------------------ |",
            "| tick(): 1                                          |                                             |",
            "|   StateView.describe(Store#1): \"clock=0 A\" at x(y) |                                             |",
            "|   clock.incrementAndGet(): 1 at z(w)               |                                             |",
            "|   StateView.describe(Store#1): \"clock=1 A\" at x(y) |                                             |",
            "| ------------------------------------------------------------------------------------------------ |",
            "|                                                    | claim(2): [E1/t2]                           |",
            "|                                                    |   StateView.describe(Store#1): \"clock=1 A\"  |",
            "|                                                    |   switch                                    |",
            "| ack(1, E1): ACKED                                  |                                             |",
            "|   StateView.describe(Store#1): \"clock=1 B\" at x(y) |                                             |",
            "|   StateView.describe(Store#1): \"clock=1 C\" at x(y) |                                             |",
            "|                                                    |   StateView.describe(Store#1): \"clock=1 C\"  |",
            "| ------------------------------------------------------------------------------------------------ |",
            "");

    @Test
    void nonLinearizableResultsBecomeAViolationWithTheResultsFlattened() {
        RunOutcome o = LincheckFailures.classify(REPORT, "STALE_ACK_REJECTED");
        assertThat(o.status()).isEqualTo(RunOutcome.Status.VIOLATION);
        // p1's ack and p2's re-claim overlap: whether the ack was stale or the row claimed after its ack, the table
        // cannot tell, so no invariant is read from it; the known mistake still says what it breaks
        assertThat(o.detail()).isEqualTo("non-linearizable against the correct model (the mistake breaks STALE_ACK_REJECTED) in "
                + "scenario ack-racing-reclaim: init claim(1): [E1/t1], tick(): 1; parallel T1 ack(1, E1): ACKED / "
                + "T2 claim(2): [E1/t2], ack(2, E1): STALE [1,1]");
    }

    @Test
    void otherLincheckFailuresAreNotViolations() {
        RunOutcome o = LincheckFailures.classify("= The execution has hung =\n| --- |\n", "SINGLE_LIVE_LEASE");
        assertThat(o.status()).isEqualTo(RunOutcome.Status.HUNG);
        assertThat(o.detail()).isEqualTo("Lincheck reported a hang (The execution has hung); its hang detection is"
                + " time-based, so this is inconclusive");
        assertThat(LincheckFailures.classify("= The execution failed with an unexpected exception =\n", "").status())
                .isEqualTo(RunOutcome.Status.OTHER_FAILURE);
        String protocol = "= Concurrent test failed =\n\n" + ProtocolViolation.class.getName()
                + ": SINGLE_LIVE_LEASE: p1 and p2 both won EVENT-61 at t=0\n\tat x\n";
        RunOutcome p = LincheckFailures.classify(protocol, "SINGLE_LIVE_LEASE");
        assertThat(p.status()).isEqualTo(RunOutcome.Status.VIOLATION);
        assertThat(p.detail()).isEqualTo("SINGLE_LIVE_LEASE: p1 and p2 both won EVENT-61 at t=0");
        assertThat(LincheckFailures.classify("= Concurrent test failed =\njava.lang.NullPointerException\n", "").status())
                .isEqualTo(RunOutcome.Status.OTHER_FAILURE);
    }

    @Test
    void stateStepsComeOutInExecutionOrderWithBeginAndEnd() {
        assertThat(TraceSteps.extract(REPORT)).containsExactly(
                "T1  tick(): 1                        begin  clock=0 A",
                "T1  tick(): 1                        end    clock=1 A",
                "T2  claim(2): [E1/t2]                begin  clock=1 A",
                "T1  ack(1, E1): ACKED                begin  clock=1 B",
                "T1  ack(1, E1): ACKED                end    clock=1 C",
                "T2  claim(2): [E1/t2]                end    clock=1 C");
        assertThat(TraceSteps.extract("= Invalid execution results =\n")).isEmpty();
    }

    @Test
    void summaryIsSortedTabSeparatedWithTheExactHeader(@TempDir Path dir) throws Exception {
        ResultFiles files = new ResultFiles(dir);
        RunOutcome passed = RunOutcome.passed("linearizable in 1 scenario");
        List<LincheckResult> results = List.of(
                new LincheckResult("relay-protocol", "correct", "PASS", "PASS", "ok", passed),
                new LincheckResult("linearizability-stress", "no-dedup-marker", "CATCH", "CAUGHT", "x", passed),
                new LincheckResult("linearizability-stress", "correct", "PASS", "PASS", "y", passed));
        Path summary = files.writeSummary(results);
        assertThat(Files.readString(summary, StandardCharsets.UTF_8)).isEqualTo(
                "check\ttarget\texpect\tverdict\tdetail\n"
                        + "linearizability-stress\tcorrect\tPASS\tPASS\ty\n"
                        + "linearizability-stress\tno-dedup-marker\tCATCH\tCAUGHT\tx\n"
                        + "relay-protocol\tcorrect\tPASS\tPASS\tok\n");
    }

    @Test
    void aFailingRunWritesItsReportAndAPassingRunRemovesAStaleOne(@TempDir Path dir) throws Exception {
        ResultFiles files = new ResultFiles(dir);
        Target target = LincheckTargets.byId("ack-ignores-token").orElseThrow();
        LincheckCheck check = Checks.byId("linearizability-model-checking").orElseThrow();
        LincheckResult caught = LincheckResult.judge(check, target, LincheckFailures.classify(REPORT, target.breaks()));
        assertThat(caught.verdict()).isEqualTo("CAUGHT");
        Path file = files.write(caught, target, LincheckBudget.DEFAULT);
        assertThat(file).hasFileName("linearizability-model-checking.ack-ignores-token.txt");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).contains("rerun:   mvn -q -pl lincheck-tests compile exec:exec "
                + "-Dlincheck.only=linearizability-model-checking/ack-ignores-token\n");
        assertThat(text).contains("T1  ack(1, E1): ACKED                end    clock=1 C\n");
        assertThat(text).endsWith(REPORT.strip() + "\n");

        LincheckResult escaped = LincheckResult.judge(check, target, RunOutcome.passed("linearizable in 1 scenario"));
        assertThat(escaped.verdict()).isEqualTo("ESCAPED");
        assertThat(escaped.detail()).isEqualTo("expected STALE_ACK_REJECTED to show, but the store was linearizable in 1 scenario");
        assertThat(files.write(escaped, target, LincheckBudget.DEFAULT)).isNull();
        assertThat(file).doesNotExist();
    }

    @Test
    void correctTargetThatFailsIsFailedAndBrokenTargetFailingOtherwiseEscapes() {
        LincheckCheck check = Checks.byId("relay-protocol").orElseThrow();
        RunOutcome crashed = LincheckFailures.classify("= The execution failed with an unexpected exception =\n", "");
        assertThat(LincheckResult.judge(check, LincheckTargets.byId("correct").orElseThrow(), crashed).verdict()).isEqualTo("FAILED");
        assertThat(LincheckResult.judge(check, LincheckTargets.byId("read-then-write-ack-store").orElseThrow(), crashed).verdict()).isEqualTo("ESCAPED");
        // Lincheck's hang detection is time-based: a hang never fails a store that must pass, nor catches a broken one
        RunOutcome hung = LincheckFailures.classify("= The execution has hung =\n", "");
        assertThat(LincheckResult.judge(check, LincheckTargets.byId("correct").orElseThrow(), hung).verdict()).isEqualTo("INCONCLUSIVE");
        assertThat(LincheckResult.judge(check, LincheckTargets.byId("read-then-write-ack-store").orElseThrow(), hung).verdict()).isEqualTo("ESCAPED");
    }
}
