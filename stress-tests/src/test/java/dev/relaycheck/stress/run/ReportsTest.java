package dev.relaycheck.stress.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jcstress.annotations.Expect;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReportsTest {

    private static TestRun run(String variant, long interesting, long forbidden) {
        return new TestRun("dev.relaycheck.stress.Lease_01_DoubleClaim." + variant, "NORMAL", interesting + forbidden,
                List.of(new OutcomeCount("1, 0, 1", interesting, Expect.ACCEPTABLE_INTERESTING, "p1 won"),
                        new OutcomeCount("1, 2, 2", forbidden, Expect.FORBIDDEN, "both won")),
                List.of());
    }

    @Test
    void summaryTsvHasTheSharedHeaderAndRowsSortedByCheckThenTarget(@TempDir Path out) throws Exception {
        List<TestRun> runs = List.of(run("Correct", 9, 0), run("ClaimIgnoresLease", 1, 3),
                run("CheckThenActClaimStore", 5, 0));
        JcstressReports.writeSummaryTsv(out, JcstressReports.verdicts(runs));
        assertThat(Files.readString(out.resolve("summary.tsv"), StandardCharsets.UTF_8)).isEqualTo("""
                check\ttarget\texpect\tverdict\tdetail
                Lease_01_DoubleClaim\tcheck-then-act-claim-store\tCATCH\tESCAPED\tno forbidden outcome in 5 samples
                Lease_01_DoubleClaim\tclaim-ignores-lease\tCATCH\tCAUGHT\tforbidden [1, 2, 2]: both won
                Lease_01_DoubleClaim\tcorrect\tPASS\tPASS\tno forbidden outcome; every witness outcome observed (1)
                """);
    }

    @Test
    void theHarnessTextListsCorrectFirstWithCountFrequencyAndGrade() {
        String text = JcstressReports.harnessText("Lease_01_DoubleClaim",
                List.of(run("ClaimIgnoresLease", 1, 3), run("Correct", 9, 0)), "jcstress 0.16, mode quick");
        assertThat(text).isEqualTo("""
                Lease_01_DoubleClaim: two pollers claim the same row at once; exactly one wins
                jcstress 0.16, mode quick

                Correct (correct): expect PASS, verdict PASS
                  no forbidden outcome; every witness outcome observed (1)
                  outcome          count      freq  grade                   description
                  1, 0, 1              9   100.00%  ACCEPTABLE_INTERESTING  p1 won
                  1, 2, 2              0        0%  FORBIDDEN               both won
                  9 samples, jcstress status NORMAL

                ClaimIgnoresLease (claim-ignores-lease): expect CATCH, verdict CAUGHT
                  forbidden [1, 2, 2]: both won
                  outcome          count      freq  grade                   description
                  1, 0, 1              1    25.00%  ACCEPTABLE_INTERESTING  p1 won
                  1, 2, 2              3    75.00%  FORBIDDEN               both won
                  4 samples, jcstress status NORMAL
                """);
    }

    @Test
    void outcomesTsvHasOneRowPerOutcomeOfEachTest(@TempDir Path out) throws Exception {
        JcstressReports.writeOutcomesTsv(out, List.of(run("Correct", 9, 0), run("ClaimIgnoresLease", 1, 3)));
        assertThat(Files.readString(out.resolve("outcomes.tsv"), StandardCharsets.UTF_8)).isEqualTo("""
                test\toutcome\tcount\tgrade\tdescription
                Lease_01_DoubleClaim.ClaimIgnoresLease\t1, 0, 1\t1\tACCEPTABLE_INTERESTING\tp1 won
                Lease_01_DoubleClaim.ClaimIgnoresLease\t1, 2, 2\t3\tFORBIDDEN\tboth won
                Lease_01_DoubleClaim.Correct\t1, 0, 1\t9\tACCEPTABLE_INTERESTING\tp1 won
                Lease_01_DoubleClaim.Correct\t1, 2, 2\t0\tFORBIDDEN\tboth won
                """);
    }

    @Test
    void frequenciesStayReadableForRareOutcomes() {
        assertThat(JcstressReports.frequency(1, 1_000_000)).isEqualTo("<0.01%");
        assertThat(JcstressReports.frequency(0, 10)).isEqualTo("0%");
        assertThat(JcstressReports.frequency(1, 3)).isEqualTo("33.33%");
    }

    @Test
    void detailsNeverCarryTabsOrNewlines() {
        assertThat(new JcstressRow("c", "t", "PASS", "PASS", "a\tb\nc").detail()).isEqualTo("a b c");
    }
}
