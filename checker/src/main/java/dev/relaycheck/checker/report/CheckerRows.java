package dev.relaycheck.checker.report;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.summary.SummaryRow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One checker's verdicts, as every checker module writes them to {@code results/<area>/summary.tsv}:
 * {@code check target expect verdict detail}, one row per check and target.
 *
 * @param checker  model, jcstress, lincheck or sql
 * @param status   PASS, FAIL, INCONCLUSIVE (nothing failed, a time-based limit left rows open), or SKIPPED
 *                 (with {@code note} saying why)
 * @param rows     the rows, sorted by check then target
 * @param note     one line for the report (what ran, how long, or why it did not)
 * @param link     relative path of the checker's own report, or empty
 */
public record CheckerRows(String checker, String status, List<Row> rows, String note, String link) {

    /** One verdict. */
    public record Row(String check, String target, String expect, String verdict, String detail) {
        public boolean caught() {
            return verdict.equals("CAUGHT");
        }

        /** The target has no counterpart on this checker's database (e.g. an H2 setting on PostgreSQL). */
        public boolean notApplicable() {
            return verdict.equals("N/A");
        }

        public boolean failed() {
            return verdict.equals("FAILED") || verdict.equals("ESCAPED");
        }

        /**
         * A time-based verdict that was not confirmed (a Lincheck hang on every try, a jcstress time-out or dead
         * VM, an SQL lock wait or a crash-kill child that ran past its limit): neither a pass nor a failure.
         */
        public boolean inconclusive() {
            return verdict.equals(INCONCLUSIVE);
        }
    }

    /** A row's verdict, and a checker's status, when only time-based limits stood between it and a verdict. */
    public static final String INCONCLUSIVE = "INCONCLUSIVE";
    /** The exit status of a checker JVM that found nothing wrong but could not conclude (as the CLI's INCOMPLETE). */
    public static final int EXIT_INCONCLUSIVE = 4;

    public CheckerRows {
        rows = rows.stream().sorted(Comparator.comparing(Row::check).thenComparing(Row::target)).toList();
    }

    /** The exit code of a checker killed at its time limit: its summary.tsv, if any, is an earlier run's. */
    public static final int KILLED_AT_LIMIT = -1;

    /** The status of a checker that did not run ({@code --only} left it out, or its database is missing). */
    public static final String SKIPPED = "SKIPPED";

    public static CheckerRows skipped(String checker, String why) {
        return new CheckerRows(checker, SKIPPED, List.of(), why, "");
    }

    public boolean skipped() {
        return status.equals(SKIPPED);
    }

    /**
     * Reads a summary.tsv; a missing or malformed file, or a checker killed at its time limit, is a FAIL with
     * no rows and the reason as the note (which makes the report INCOMPLETE).
     */
    public static CheckerRows read(String checker, Path tsv, int exitCode, String note, String link) {
        if (exitCode == KILLED_AT_LIMIT) {
            // a summary.tsv there is an earlier run's (the checker writes it last): no rows, so the report's
            // verdict is INCOMPLETE, never a failure found by a run that a time limit cut short
            return new CheckerRows(checker, "FAIL", List.of(), note, link); // the note says it was killed
        }
        if (!Files.isRegularFile(tsv)) {
            return new CheckerRows(checker, "FAIL", List.of(), note + "; it wrote no " + tsv, link);
        }
        List<Row> rows = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(0).equals(SummaryRow.HEADER)) {
                throw new UsageException(tsv + " does not start with the summary.tsv header");
            }
            for (String line : lines.subList(1, lines.size())) {
                if (line.isBlank()) {
                    continue;
                }
                SummaryRow r;
                try {
                    r = SummaryRow.parse(line);
                } catch (IllegalArgumentException e) {
                    throw new UsageException(tsv + ": a row needs 5 tab-separated fields: " + line);
                }
                rows.add(new Row(r.check(), r.target(), r.expect(), r.verdict(), r.detail()));
            }
        } catch (IOException e) {
            return new CheckerRows(checker, "FAIL", List.of(), note + "; cannot read " + tsv + ": " + e.getMessage(), link);
        }
        return of(checker, exitCode, rows, note, link);
    }

    /**
     * PASS when the checker exited 0 and every row is as expected; INCONCLUSIVE when no row failed but some
     * are inconclusive (the checker then exits {@link #EXIT_INCONCLUSIVE}); FAIL otherwise (no rows: it did
     * not run).
     */
    public static CheckerRows of(String checker, int exitCode, List<Row> rows, String note, String link) {
        boolean noneFailed = rows.stream().noneMatch(Row::failed) && !rows.isEmpty();
        boolean inconclusive = noneFailed && rows.stream().anyMatch(Row::inconclusive)
                && (exitCode == 0 || exitCode == EXIT_INCONCLUSIVE);
        boolean ok = exitCode == 0 && noneFailed && !inconclusive;
        return new CheckerRows(checker, ok ? "PASS" : inconclusive ? INCONCLUSIVE : "FAIL", rows, note, link);
    }

    /** Rows for one target, e.g. a catalogue id. */
    public List<Row> forTarget(String target) {
        return rows.stream().filter(r -> r.target().equals(target)).toList();
    }
}
