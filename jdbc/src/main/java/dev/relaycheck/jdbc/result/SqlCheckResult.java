package dev.relaycheck.jdbc.result;

import dev.relaycheck.model.summary.SummaryRow;

import java.util.List;

/**
 * What one of the SQL checks found.
 *
 * @param check  {@link #CONFORMANCE}, {@link #RACE} or {@link #CRASH_KILL}
 * @param rows   one row per target, sorted
 * @param runs   schedules driven, races run or processes killed
 * @param report the human-readable report (what ran, every verdict, how to reproduce)
 * @param findings what the report draws: the relay under test's failures, and the finding that caught each broken
 *               variant
 */
public record SqlCheckResult(String check, List<SummaryRow> rows, long runs, String report, List<SqlFinding> findings) {
    /** The checks' names, as summary.tsv rows and findings name them. */
    public static final String CONFORMANCE = "sql-conformance";
    public static final String RACE = "sql-race";
    public static final String CRASH_KILL = "sql-crash-kill";

    public SqlCheckResult {
        rows = rows.stream().sorted().toList();
        findings = List.copyOf(findings);
    }

    /** Without findings to draw. */
    public SqlCheckResult(String check, List<SummaryRow> rows, long runs, String report) {
        this(check, rows, runs, report, List.of());
    }

    /** Every correct target passed and every broken one was caught. */
    public boolean passed() {
        return rows.stream().allMatch(SummaryRow::ok);
    }

    /** No row failed, but some are INCONCLUSIVE (a time limit ran out twice): neither a pass nor a failure. */
    public boolean inconclusive() {
        return !passed() && rows.stream().allMatch(r -> r.ok() || r.inconclusive());
    }

    /** One line per row, for a console; the rows that failed come first, so a failure is not lost in the table. */
    public String summary() {
        StringBuilder b = new StringBuilder(check + ": " + (passed() ? "PASS" : inconclusive() ? SummaryRow.INCONCLUSIVE : "FAIL") + " (" + runs + " runs)\n");
        rows.stream().filter(r -> !r.ok()).forEach(r -> line(b, r));
        rows.stream().filter(SummaryRow::ok).forEach(r -> line(b, r));
        return b.toString();
    }

    private static void line(StringBuilder b, SummaryRow r) {
        b.append(String.format("  %-28s %-7s %s%n", r.target(), r.verdict(), r.detail()));
    }
}
