package dev.relaycheck.stress.run;

import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.annotations.Expect;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JcstressJudgeTest {

    private static final String CORRECT = "dev.relaycheck.stress.Lease_01_DoubleClaim.Correct";
    private static final String BROKEN = "dev.relaycheck.stress.Lease_01_DoubleClaim.ClaimIgnoresLease";

    private static OutcomeCount won(long n) {
        return new OutcomeCount("1, 0, 1", n, Expect.ACCEPTABLE_INTERESTING, "p1 won");
    }

    private static OutcomeCount both(long n) {
        return new OutcomeCount("1, 2, 2", n, Expect.FORBIDDEN, "both won (SINGLE_LIVE_LEASE)");
    }

    private static TestRun run(String name, OutcomeCount... outcomes) {
        long total = List.of(outcomes).stream().mapToLong(OutcomeCount::count).sum();
        return new TestRun(name, "NORMAL", total, List.of(outcomes), List.of());
    }

    @Test
    void aBrokenTargetThatShowsAForbiddenOutcomeIsCaughtAndNamesIt() {
        JcstressRow v = JcstressJudge.judge(run(BROKEN, won(10), both(3)));
        assertThat(v).isEqualTo(new JcstressRow("Lease_01_DoubleClaim", "claim-ignores-lease", "CATCH", "CAUGHT",
                "forbidden [1, 2, 2]: both won (SINGLE_LIVE_LEASE)"));
        assertThat(v.asExpected()).isTrue();
    }

    @Test
    void aBrokenTargetWithoutAForbiddenOutcomeEscapes() {
        JcstressRow v = JcstressJudge.judge(run(BROKEN, won(10), both(0)));
        assertThat(v.verdict()).isEqualTo("ESCAPED");
        assertThat(v.detail()).isEqualTo("no forbidden outcome in 10 samples");
        assertThat(v.asExpected()).isFalse();
    }

    @Test
    void theCorrectLogicPassesOnlyWithoutForbiddenOutcomesAndWithEveryWitness() {
        assertThat(JcstressJudge.judge(run(CORRECT, won(10), both(0))).verdict()).isEqualTo("PASS");
        assertThat(JcstressJudge.judge(run(CORRECT, won(10), both(1))).verdict()).isEqualTo("FAILED");
        JcstressRow vacuous = JcstressJudge.judge(run(CORRECT, won(0), new OutcomeCount("0, 0, 0", 5, Expect.ACCEPTABLE, "x")));
        assertThat(vacuous.verdict()).isEqualTo("FAILED");
        assertThat(vacuous.detail()).isEqualTo("witness never observed: 1, 0, 1 (p1 won)");
    }

    @Test
    void aTestThatDidNotCompleteIsNeitherCaughtNorPassed() {
        TestRun crashed = new TestRun(BROKEN, "TEST_ERROR", 0, List.of(both(0)), List.of("java.lang.IllegalStateException: boom"));
        assertThat(JcstressJudge.judge(crashed).verdict()).isEqualTo("ESCAPED");
        assertThat(JcstressJudge.judge(crashed).detail()).isEqualTo("jcstress status TEST_ERROR: java.lang.IllegalStateException: boom");
        TestRun empty = new TestRun(CORRECT, "NORMAL", 0, List.of(won(0)), List.of());
        assertThat(JcstressJudge.judge(empty).verdict()).isEqualTo("FAILED");
    }

    @Test
    void aTimeOutOrADeadVmIsInconclusiveNeverAFailure() {
        for (String status : List.of("TIMEOUT_ERROR", "VM_ERROR")) {
            for (String target : List.of(CORRECT, BROKEN)) {
                JcstressRow v = JcstressJudge.judge(new TestRun(target, status, 0, List.of(won(0), both(0)), List.of("fork timed out")));
                assertThat(v.verdict()).as(status + " " + target).isEqualTo("INCONCLUSIVE");
                assertThat(v.detail()).startsWith("jcstress status " + status + ": fork timed out");
                assertThat(v.asExpected()).isFalse();
            }
        }
        JcstressRow pass = JcstressJudge.judge(run(CORRECT, won(10), both(0)));
        JcstressRow timedOut = JcstressJudge.judge(new TestRun(CORRECT, "TIMEOUT_ERROR", 0, List.of(won(0)), List.of()));
        JcstressRow failed = JcstressJudge.judge(run(CORRECT, won(10), both(1)));
        assertThat(dev.relaycheck.stress.Curriculum.exitStatus(List.of(pass))).isZero();
        assertThat(dev.relaycheck.stress.Curriculum.exitStatus(List.of(pass, timedOut))).isEqualTo(4);
        assertThat(dev.relaycheck.stress.Curriculum.exitStatus(List.of(timedOut, failed))).isEqualTo(1);
    }

    @Test
    void targetsAreTheKebabCaseOfTheNestedClass() {
        assertThat(JcstressTargets.targetOf("Correct")).isEqualTo("correct");
        assertThat(JcstressTargets.targetOf("ClaimIgnoresLease")).isEqualTo("claim-ignores-lease");
        assertThat(JcstressTargets.targetOf("CheckThenInsertDedupStore")).isEqualTo("check-then-insert-dedup-store");
        assertThat(JcstressTargets.known()).contains("correct", "outbox-outside-transaction", "read-then-write-ack-store")
                .contains("renewal-by-owner", "renewal-ignores-expiry", "ignores-settle-result") // Lease_05, Lease_06
                .doesNotContainAnyElementsOf(JcstressTargets.NOT_IN_CURRICULUM.keySet())
                .hasSize(21);
    }
}
