package dev.relaycheck.stress.run;

import dev.relaycheck.model.summary.SummaryRow;
import dev.relaycheck.stress.run.TestRun;

/**
 * One row of summary.tsv.
 *
 * @param check   the harness, e.g. {@code Lease_01_DoubleClaim}
 * @param target  {@code correct}, a catalogue variant id or a broken store's kebab-case name
 * @param expect  PASS for the correct logic, CATCH for a broken one
 * @param verdict PASS, CAUGHT, ESCAPED (broken but not caught), FAILED (correct but failed) or INCONCLUSIVE
 *                (a time-out or a dead VM)
 * @param detail  the forbidden outcome seen, or why the row is what it is; one line, no tabs
 */
public record JcstressRow(String check, String target, String expect, String verdict, String detail) {
    /** Neither pass nor failure: the run hit a time limit or lost its VM (see {@link TestRun#timeBound()}). */
    public static final String INCONCLUSIVE = "INCONCLUSIVE";

    public JcstressRow {
        detail = detail.replaceAll("[\\t\\r\\n]+", " ");
    }

    /** PASS and CAUGHT are what a healthy curriculum produces. */
    public boolean asExpected() {
        return verdict.equals("PASS") || verdict.equals("CAUGHT");
    }

    public boolean inconclusive() {
        return verdict.equals(INCONCLUSIVE);
    }

    /** This verdict as its line of summary.tsv. */
    public SummaryRow row() {
        return new SummaryRow(check, target, expect, verdict, detail);
    }
}
