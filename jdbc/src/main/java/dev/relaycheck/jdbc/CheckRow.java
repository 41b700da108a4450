package dev.relaycheck.jdbc;

/**
 * One line of {@code summary.tsv}: {@code check target expect verdict detail}.
 *
 * @param check   sql-conformance, sql-race or sql-crash-kill
 * @param target  {@code correct}, a catalogue variant id, or {@code h2-default-write-delay}
 * @param expect  PASS (correct) or CATCH (broken)
 * @param verdict PASS, CAUGHT, ESCAPED (broken, not caught), FAILED (correct, failed), N/A (the control has no
 *                counterpart on this database; the detail says why) or INCONCLUSIVE (only a time limit, passed twice
 *                on a loaded machine, stood in the way, or thread timing kept the relay's races from every witness:
 *                neither a pass nor a failure)
 * @param detail  the invariant or problem, and where to reproduce it; no tabs or newlines
 */
public record CheckRow(String check, String target, String expect, String verdict, String detail) implements Comparable<CheckRow> {
    public static final String HEADER = "check\ttarget\texpect\tverdict\tdetail";
    public static final String NOT_APPLICABLE = "N/A";
    public static final String INCONCLUSIVE = "INCONCLUSIVE";

    public CheckRow {
        detail = detail.replaceAll("[\\t\\r\\n]+", " ");
    }

    public static CheckRow of(String check, String target, boolean correct, String verdict, String detail) {
        return new CheckRow(check, target, correct ? "PASS" : "CATCH", verdict, detail);
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

    public static CheckRow parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 5) {
            throw new IllegalArgumentException("not a summary row: " + line);
        }
        return new CheckRow(f[0], f[1], f[2], f[3], f[4]);
    }

    @Override
    public int compareTo(CheckRow o) {
        int c = check.compareTo(o.check);
        return c != 0 ? c : target.compareTo(o.target);
    }
}
