package dev.relaycheck.checker.check;

import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.report.CheckerRows;
import dev.relaycheck.checker.report.ModelRows;
import dev.relaycheck.checker.report.Report;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A time limit that ran out is no finding about the logic: a checker JVM killed at its limit, or a row a
 * checker left INCONCLUSIVE (an unconfirmed hang or time-out), makes the report INCOMPLETE, never a
 * VIOLATION; a FAILED row of the same checker still is one.
 */
class TimeLimitVerdictTest {

    /** A checker that never finishes: a real JVM that sleeps past any limit the test gives it. */
    public static final class SleepingChecker {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("checking, slowly");
            Thread.sleep(600_000);
        }
    }

    private static Report report(CheckerRows checker) {
        ModelCheck.Outcome model = new ModelCheck(new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE))
                .run(LogicCatalogue.correct(), List.of(ReferenceScenarios.staleAckAfterExpiry()));
        // every catalogue variant caught somewhere, so only the checker under test can move the verdict
        List<CheckerRows.Row> caught = new ArrayList<>();
        LogicCatalogue.variants().forEach(v -> caught.add(new CheckerRows.Row("c", v.id(), "CATCH", "CAUGHT", "x")));
        CheckerRows other = CheckerRows.of("sql", 0, caught, "every variant", "");
        return new Report(LogicCatalogue.correct(), model, List.of(ModelRows.of(model), other, checker), List.of(), List.of());
    }

    @Test
    void aCheckerKilledAtItsTimeLimitMakesTheReportIncompleteNotAViolation(@TempDir Path dir) throws Exception {
        Path tsv = dir.resolve("summary.tsv"); // an earlier run's rows, one of them FAILED: not this run's finding
        Files.writeString(tsv, "check\ttarget\texpect\tverdict\tdetail\nrun\tcorrect\tPASS\tFAILED\told\n");
        int exit = Subprocess.run(List.of(Subprocess.java(), "-cp", System.getProperty("java.class.path"),
                SleepingChecker.class.getName()), dir, dir.resolve("log.txt"), 1, new Subprocess.LogWatcher() {
            @Override
            public void line(String line) {
            }

            @Override
            public void tick() {
            }
        });
        assertThat(exit).isEqualTo(CheckerRows.KILLED_AT_LIMIT);
        CheckerRows killed = CheckerRows.read("lincheck", tsv, exit, "every check, killed at its time limit", "");
        assertThat(killed.rows()).isEmpty();
        assertThat(report(killed).verdict()).isEqualTo(Verdict.INCOMPLETE);
        // the same file read after a run that ended: its FAILED row is a violation (the negative control)
        assertThat(report(CheckerRows.read("lincheck", tsv, 1, "every check", "")).verdict()).isEqualTo(Verdict.VIOLATION);
    }

    @Test
    void anInconclusiveRowOfTheLogicUnderTestIsIncompleteAndAFailedOneAViolation() {
        CheckerRows hung = CheckerRows.of("lincheck", CheckerRows.EXIT_INCONCLUSIVE, List.of(
                new CheckerRows.Row("relay-protocol", "correct", "PASS", "INCONCLUSIVE", "reported hung on every try")),
                "every check", "");
        assertThat(hung.status()).isEqualTo(CheckerRows.INCONCLUSIVE);
        assertThat(report(hung).verdict()).isEqualTo(Verdict.INCOMPLETE);

        CheckerRows failed = CheckerRows.of("lincheck", 1, List.of(
                new CheckerRows.Row("relay-protocol", "correct", "PASS", "INCONCLUSIVE", "reported hung on every try"),
                new CheckerRows.Row("claim", "correct", "PASS", "FAILED", "double claim")), "every check", "");
        assertThat(failed.status()).isEqualTo("FAIL");
        assertThat(report(failed).verdict()).isEqualTo(Verdict.VIOLATION);
    }
}
