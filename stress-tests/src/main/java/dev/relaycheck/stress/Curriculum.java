package dev.relaycheck.stress;

import dev.relaycheck.model.store.UserTarget;
import dev.relaycheck.stress.run.CurriculumOptions;
import dev.relaycheck.stress.run.ForkProof;
import dev.relaycheck.stress.run.JCStressRunner;
import dev.relaycheck.stress.run.JcstressReports;
import dev.relaycheck.stress.run.JcstressRow;
import dev.relaycheck.stress.run.JcstressUsageException;
import dev.relaycheck.stress.run.JcstressUserClasses;
import dev.relaycheck.stress.run.TestRun;
import dev.relaycheck.stress.run.UserVerdicts;

import java.io.PrintStream;
import java.util.List;

/**
 * Runs the jcstress curriculum and writes its reports: jcstress's HTML ({@code index.html} and a page per
 * test), a plain-text summary per harness ({@code <Harness>.txt}), {@code summary.tsv} (one verdict per
 * harness and target) and {@code outcomes.tsv} (every outcome's count and grade), all in the
 * {@code --out} directory (default {@code results/jcstress}). Exit status 0 when every correct harness
 * passed (no forbidden outcome, every witness seen) and every broken one was caught (a forbidden outcome
 * seen), 4 when nothing failed but a test timed out or lost its VM (INCONCLUSIVE), 1 otherwise, 2 for bad
 * arguments.
 *
 * <pre>java -cp stress-tests/target/jcstress.jar dev.relaycheck.stress.Curriculum --mode quick --tests REGEX --out results/jcstress</pre>
 */
public final class Curriculum {
    /** Exit status when nothing failed but a test timed out or lost its VM on every fork (as Lincheck's and the CLI's). */
    static final int INCONCLUSIVE = 4;

    private Curriculum() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = exitStatus(run(CurriculumOptions.parse(args), System.out));
        } catch (JcstressUsageException e) {
            System.err.println("relaycheck jcstress: " + e.getMessage());
            status = 2;
        } catch (Exception e) {
            System.err.println("relaycheck jcstress: run failed: " + e);
            status = 1;
        }
        System.exit(status);
    }

    /** 0 when every row is as expected; 4 when none failed but some were cut short by time (INCONCLUSIVE); else 1. */
    public static int exitStatus(List<JcstressRow> rows) {
        if (rows.stream().allMatch(JcstressRow::asExpected)) {
            return 0;
        }
        return rows.stream().allMatch(v -> v.asExpected() || v.inconclusive()) ? INCONCLUSIVE : 1;
    }

    /** Runs, writes every report, prints the verdicts; returns them (sorted by harness, then target). */
    public static List<JcstressRow> run(CurriculumOptions o, PrintStream console) throws Exception {
        UserTarget user = o.user().given() ? o.user().load() : null;
        List<String> selected = JCStressRunner.select(o);
        console.printf("jcstress curriculum, mode %s: %d tests matching '%s' -> %s%n",
                o.mode().id(), selected.size(), o.tests(), o.out());
        if (user != null) {
            console.println("user target: " + user.describe() + "; every harness's User test runs it in forked JVMs,"
                    + " each of which must prove it loaded exactly these classes");
            if (o.user().outcomeOnly()) {
                console.println("outcome-only: " + user.id() + " produces no snapshot, so only the harnesses whose outcome"
                        + " its answers fill in run on it: " + String.join(", ", JcstressUserClasses.OUTCOME_ONLY_HARNESSES)
                        + "; every other harness judges the store's state");
            }
        }
        console.println("(jcstress says FAILED when it saw a forbidden outcome, which a broken target must do;"
                + " the verdicts at the end say which is which)");
        List<TestRun> runs = JCStressRunner.run(o, console);
        List<JcstressRow> rows = JcstressReports.verdicts(runs);
        if (user != null) {
            rows = UserVerdicts.attribute(rows, user, ForkProof.check(o.out(), user), ForkProof.count(o.out()));
        }
        JcstressReports.writeSummaryTsv(o.out(), rows);
        JcstressReports.writeOutcomesTsv(o.out(), runs);
        String runDescription = "jcstress 0.16, mode " + o.mode().id() + ", options: "
                + String.join(" ", JCStressRunner.jcstressArgs(o));
        JcstressReports.writeHarnessSummaries(o.out(), runs, runDescription);
        long good = rows.stream().filter(JcstressRow::asExpected).count();
        console.printf("%nverdicts (%d of %d as expected):%n%s", good, rows.size(), JcstressReports.verdictTable(rows));
        console.printf("reports: %s (HTML), %s, one <Harness>.txt per harness%n",
                o.out().resolve("index.html"), o.out().resolve(JcstressReports.SUMMARY_TSV));
        return rows;
    }
}
