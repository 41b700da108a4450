package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.LincheckCheck;
import dev.relaycheck.lincheck.LincheckFailures;
import dev.relaycheck.lincheck.RunOutcome;
import dev.relaycheck.lincheck.Target;

/**
 * The verdict of one check on one target, as summary.tsv has it.
 *
 * @param check   check id
 * @param target  target id
 * @param expect  PASS (correct) or CATCH (broken)
 * @param verdict PASS, CAUGHT, ESCAPED (broken, not caught), FAILED (correct, failed) or INCONCLUSIVE (a store that
 *                must pass was reported hung on every try)
 * @param detail  one line, no tabs: the forbidden outcome or invariant, or what was explored
 * @param outcome the run it was judged from
 */
public record LincheckResult(String check, String target, String expect, String verdict, String detail, RunOutcome outcome) {

    /**
     * Judges a run. A broken target counts as caught only when Lincheck failed it with the failure the check
     * looks for; a broken target that fails for another reason (a hang, an exception) has not shown its bug.
     */
    public static LincheckResult judge(LincheckCheck check, Target target, RunOutcome outcome) {
        String verdict;
        if (target.isCorrect()) {
            verdict = switch (outcome.status()) {
                case PASSED -> "PASS";
                case HUNG -> "INCONCLUSIVE"; // a time-based hang verdict never fails a store that must pass
                default -> "FAILED";
            };
        } else {
            verdict = outcome.status() == RunOutcome.Status.VIOLATION ? "CAUGHT" : "ESCAPED";
        }
        String detail = outcome.detail();
        if (verdict.equals("ESCAPED") && outcome.status() == RunOutcome.Status.PASSED) {
            detail = "expected " + target.breaks() + " to show, but the store was " + detail;
        }
        return new LincheckResult(check.id(), target.id(), target.expect(), verdict,
                LincheckFailures.oneLine(detail), outcome);
    }

    /** A check that cannot run on this target (the report says why); neither a pass nor a failure. */
    public static LincheckResult skipped(LincheckCheck check, Target target, String why) {
        return new LincheckResult(check.id(), target.id(), target.expect(), "SKIPPED", LincheckFailures.oneLine(why),
                RunOutcome.passed(why));
    }

    public boolean inconclusive() {
        return verdict.equals("INCONCLUSIVE");
    }

    public boolean ok() {
        return verdict.equals("PASS") || verdict.equals("CAUGHT") || verdict.equals("SKIPPED");
    }

    /** True when Lincheck failed the run, so there is a report to save. */
    public boolean hasReport() {
        return !outcome.report().isEmpty();
    }
}
