package dev.relaycheck.lincheck;

import java.nio.file.Path;

/** Runs one planned (check, target) pair, judges it, and saves its report: shared by the main entry and the tests. */
public final class CheckRunner {
    private final LincheckBudget budget;
    private final ResultFiles files;

    public CheckRunner(LincheckBudget budget, ResultFiles files) {
        this.budget = budget;
        this.files = files;
    }

    /** The result, and the report file it wrote (null when it passed). */
    public record Ran(CheckResult result, Path report, long millis) {
    }

    public Ran run(Checks.Planned p) {
        long start = System.nanoTime();
        RunOutcome outcome = p.check().run(p.target(), budget);
        long millis = (System.nanoTime() - start) / 1_000_000; // for the console only, never in a file
        CheckResult result = CheckResult.judge(p.check(), p.target(), outcome);
        return new Ran(result, files.write(result, p.target(), budget), millis);
    }

    public LincheckBudget budget() {
        return budget;
    }

    public ResultFiles files() {
        return files;
    }
}
