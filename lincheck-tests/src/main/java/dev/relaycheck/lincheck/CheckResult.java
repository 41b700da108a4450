package dev.relaycheck.lincheck;

/**
 * The verdict of one check on one target, as summary.tsv has it.
 *
 * @param check   check id
 * @param target  target id
 * @param expect  PASS (correct) or CATCH (broken)
 * @param verdict PASS, CAUGHT, ESCAPED (broken, not caught) or FAILED (correct, failed)
 * @param detail  one line, no tabs: the forbidden outcome or invariant, or what was explored
 * @param outcome the run it was judged from
 */
public record CheckResult(String check, String target, String expect, String verdict, String detail, RunOutcome outcome) {

    /**
     * Judges a run. A broken target counts as caught only when Lincheck failed it with the failure the check
     * looks for; a broken target that fails for another reason (a hang, an exception) has not shown its bug.
     */
    public static CheckResult judge(LincheckCheck check, Target target, RunOutcome outcome) {
        String verdict;
        if (target.isCorrect()) {
            verdict = outcome.status() == RunOutcome.Status.PASSED ? "PASS" : "FAILED";
        } else {
            verdict = outcome.status() == RunOutcome.Status.VIOLATION ? "CAUGHT" : "ESCAPED";
        }
        String detail = outcome.detail();
        if (verdict.equals("ESCAPED") && outcome.status() == RunOutcome.Status.PASSED) {
            detail = "expected " + target.breaks() + " to show, but the store was " + detail;
        }
        return new CheckResult(check.id(), target.id(), target.expect(), verdict,
                LincheckFailures.oneLine(detail), outcome);
    }

    public boolean ok() {
        return verdict.equals("PASS") || verdict.equals("CAUGHT");
    }

    /** True when Lincheck failed the run, so there is a report to save. */
    public boolean hasReport() {
        return !outcome.report().isEmpty();
    }
}
