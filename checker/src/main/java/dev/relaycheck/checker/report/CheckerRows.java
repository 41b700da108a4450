package dev.relaycheck.checker.report;

import dev.relaycheck.checker.UsageException;

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
 * @param status   PASS, FAIL, or SKIPPED (with {@code note} saying why)
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
    }

    public CheckerRows {
        rows = rows.stream().sorted(Comparator.comparing(Row::check).thenComparing(Row::target)).toList();
    }

    public static CheckerRows skipped(String checker, String why) {
        return new CheckerRows(checker, "SKIPPED", List.of(), why, "");
    }

    /** Reads a summary.tsv; a missing or malformed file is a FAIL with the reason as the note. */
    public static CheckerRows read(String checker, Path tsv, int exitCode, String note, String link) {
        if (!Files.isRegularFile(tsv)) {
            return new CheckerRows(checker, "FAIL", List.of(), note + "; it wrote no " + tsv, link);
        }
        List<Row> rows = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(0).equals("check\ttarget\texpect\tverdict\tdetail")) {
                throw new UsageException(tsv + " does not start with the summary.tsv header");
            }
            for (String line : lines.subList(1, lines.size())) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length != 5) {
                    throw new UsageException(tsv + ": a row needs 5 tab-separated fields: " + line);
                }
                rows.add(new Row(f[0], f[1], f[2], f[3], f[4]));
            }
        } catch (IOException e) {
            return new CheckerRows(checker, "FAIL", List.of(), note + "; cannot read " + tsv + ": " + e.getMessage(), link);
        }
        return of(checker, exitCode, rows, note, link);
    }

    /** PASS when the checker exited 0 and every row is as expected; FAIL otherwise (no rows: it did not run). */
    public static CheckerRows of(String checker, int exitCode, List<Row> rows, String note, String link) {
        boolean ok = exitCode == 0 && rows.stream().noneMatch(Row::failed) && !rows.isEmpty();
        return new CheckerRows(checker, ok ? "PASS" : "FAIL", rows, note, link);
    }

    /** Rows for one target, e.g. a catalogue id. */
    public List<Row> forTarget(String target) {
        return rows.stream().filter(r -> r.target().equals(target)).toList();
    }
}
