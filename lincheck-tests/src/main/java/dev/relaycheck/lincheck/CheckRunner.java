package dev.relaycheck.lincheck;

import java.nio.file.Path;

/**
 * Runs one planned (check, target) pair, judges it, and saves its report: shared by the main entry and the
 * tests. A broken target whose failure Lincheck could not render is run once more.
 */
public final class CheckRunner {
    /** How often a store that must pass is rerun after a hang report before the run counts as inconclusive. */
    static final int HANG_RETRIES = 2;

    private final LincheckBudget budget;
    private final ResultFiles files;

    public CheckRunner(LincheckBudget budget, ResultFiles files) {
        this.budget = budget;
        this.files = files;
    }

    /** The result, and the report file it wrote (null when it passed). */
    public record Ran(LincheckResult result, Path report, long millis) {
    }

    public Ran run(Checks.Planned p) {
        long start = System.nanoTime();
        RunOutcome outcome = p.check().run(p.target(), budget);
        if (outcome.status() == RunOutcome.Status.REPORT_CRASHED && !p.target().isCorrect()) {
            // a broken target: Lincheck did find something; run once more to get a failure it can render.
            // Never for the correct store, where any failure found must stand.
            outcome = p.check().run(p.target(), budget).noted("retried once: " + outcome.detail());
        }
        for (int retry = 1; retry <= HANG_RETRIES && outcome.status() == RunOutcome.Status.HUNG && p.target().isCorrect(); retry++) {
            // Lincheck's hang detection is time-based and the machine may be loaded: confirm before believing it
            RunOutcome again = p.check().run(p.target(), budget);
            outcome = again.noted("rerun " + retry + " after a hang report: " + outcome.detail());
        }
        long millis = (System.nanoTime() - start) / 1_000_000; // for the console only, never in a file
        LincheckResult result = LincheckResult.judge(p.check(), p.target(), outcome);
        return new Ran(result, files.write(result, p.target(), budget), millis);
    }

    public LincheckBudget budget() {
        return budget;
    }

    public ResultFiles files() {
        return files;
    }
}
