package dev.relaycheck.model.summary;

import java.util.List;

/**
 * One line of a checker's {@code summary.tsv}: {@code check target expect verdict detail}, the one format every
 * harness (jcstress, Lincheck, the SQL checks) writes and the main job reads.
 *
 * @param check   the check, e.g. sql-conformance, linearizability-stress or a jcstress harness
 * @param target  {@code correct}, a catalogue variant id, or a named setting such as {@code h2-default-write-delay}
 * @param expect  PASS (correct) or CATCH (broken)
 * @param verdict PASS, CAUGHT, ESCAPED (broken, not caught), FAILED (correct, failed), N/A (the control has no
 *                counterpart on this database; the detail says why) or INCONCLUSIVE (only a time limit, passed twice
 *                on a loaded machine, stood in the way, or thread timing kept the relay's races from every witness:
 *                neither a pass nor a failure)
 * @param detail  the invariant or problem, and where to reproduce it; no tabs or newlines
 */
public record SummaryRow(String check, String target, String expect, String verdict, String detail) implements Comparable<SummaryRow> {
    public static final String HEADER = "check\ttarget\texpect\tverdict\tdetail";
    public static final String NOT_APPLICABLE = "N/A";
    public static final String INCONCLUSIVE = "INCONCLUSIVE";

    public SummaryRow {
        detail = detail.replaceAll("[\\t\\r\\n]+", " ");
    }

    public static SummaryRow of(String check, String target, boolean correct, String verdict, String detail) {
        return new SummaryRow(check, target, correct ? "PASS" : "CATCH", verdict, detail);
    }

    public boolean ok() {
        return verdict.equals("PASS") || verdict.equals("CAUGHT") || verdict.equals(NOT_APPLICABLE);
    }

    /** Time-based and unconfirmed: not {@link #ok()}, and no failure either. */
    public boolean inconclusive() {
        return verdict.equals(INCONCLUSIVE);
    }

    public String tsv() {
        return String.join("\t", check, target, expect, verdict, detail);
    }

    /** The whole file: the header, then {@code rows} in the order given, each on its line. */
    public static String file(List<SummaryRow> rows) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        rows.forEach(r -> b.append(r.tsv()).append('\n'));
        return b.toString();
    }

    public static SummaryRow parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 5) {
            throw new IllegalArgumentException("not a summary row: " + line);
        }
        return new SummaryRow(f[0], f[1], f[2], f[3], f[4]);
    }

    @Override
    public int compareTo(SummaryRow o) {
        int c = check.compareTo(o.check);
        return c != 0 ? c : target.compareTo(o.target);
    }
}
