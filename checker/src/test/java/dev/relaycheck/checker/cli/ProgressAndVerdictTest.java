package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.search.Verdict;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The progress line's form on a terminal and in a log, and the precedence of verdicts. */
class ProgressAndVerdictTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aProgressLineSaysDoneOfTotalElapsedAndAnEstimate() {
        assertThat(PhaseProgressPrinter.line("jcstress", 3, 9, "tests", "Lease_03_AckRacesExpiry", 72 * SECOND))
                .isEqualTo("[jcstress] 3 of 9 tests, 1m12s elapsed, about 2m24s left (Lease_03_AckRacesExpiry)");
        assertThat(PhaseProgressPrinter.line("lincheck", 0, 0, "runs", "starting its JVM", 2 * SECOND))
                .isEqualTo("[lincheck] 0 runs, 2s elapsed (starting its JVM)");
        assertThat(PhaseProgressPrinter.line("model", 30, 30, "searches", "", 5 * SECOND))
                .isEqualTo("[model] 30 of 30 searches, 5s elapsed");
    }

    @Test
    void onATerminalOneLineRewritesItselfElsewherePhasesStartAndEndOnTheirOwnLines() {
        StringWriter tty = new StringWriter();
        PhaseProgressPrinter onTty = new PhaseProgressPrinter(new PrintWriter(tty), true);
        onTty.update("model", 0, 2, "searches", "correct on mixed");
        onTty.update("model", 1, 2, "searches", "ack-ignores-token on mixed");
        onTty.update("model", 2, 2, "searches", "");
        onTty.update("sql", 0, 3, "checks", "conformance");
        onTty.finishLine();
        assertThat(tty.toString()).startsWith("\r[model] 0 of 2 searches").contains("\r[model] 1 of 2 searches")
                .containsPattern("\r\\[model] 2 of 2 searches, \\d+s elapsed *\n\r\\[sql] 0 of 3 checks").endsWith("\n")
                .doesNotContainPattern("searches[^\n]*\n\r\\[model]");

        StringWriter log = new StringWriter();
        PhaseProgressPrinter inLog = new PhaseProgressPrinter(new PrintWriter(log), false);
        inLog.update("model", 0, 2, "searches", "correct on mixed");
        inLog.update("model", 1, 2, "searches", "ack-ignores-token on mixed"); // within the period: not printed
        inLog.update("model", 2, 2, "searches", "");
        assertThat(log.toString().lines().toList()).hasSize(2).allMatch(l -> l.startsWith("[model] ")).noneMatch(l -> l.contains("\r"));
    }

    @Test
    void theVerdictOfSeveralIsTheOneOfHighestPrecedence() {
        assertThat(Verdict.worst(List.of())).isEqualTo(Verdict.CLEAN);
        assertThat(Verdict.worst(List.of(Verdict.VACUOUS, Verdict.CLEAN))).isEqualTo(Verdict.VACUOUS);
        assertThat(Verdict.worst(List.of(Verdict.VACUOUS, Verdict.INCOMPLETE))).isEqualTo(Verdict.INCOMPLETE);
        assertThat(Verdict.worst(List.of(Verdict.INCOMPLETE, Verdict.VIOLATION))).isEqualTo(Verdict.VIOLATION);
        // a logic that throws, or is not a function, makes every other finding about it unreliable
        assertThat(Verdict.worst(List.of(Verdict.VIOLATION, Verdict.LOGIC_ERROR, Verdict.CLEAN))).isEqualTo(Verdict.LOGIC_ERROR);
        assertThat(Verdict.worst(List.of(Verdict.LOGIC_ERROR, Verdict.NON_DETERMINISM))).isEqualTo(Verdict.NON_DETERMINISM);
        assertThat(List.of(Verdict.values()).stream().map(ExitCodes::of).toList())
                .containsExactly(ExitCodes.CLEAN, ExitCodes.VACUOUS, ExitCodes.INCOMPLETE,
                        ExitCodes.VIOLATION, ExitCodes.LOGIC_ERROR, ExitCodes.NON_DETERMINISM);
    }
}
