package dev.relaycheck.checker.report;

import java.util.List;

/**
 * The outcomes one jcstress harness observed.
 *
 * @param harness the harness class (nested classes with their enclosing name)
 * @param bars    one bar per outcome, in the order jcstress reported them
 */
public record Histogram(String harness, List<Bar> bars) {

    /** One outcome: its observed count and how the harness grades it. */
    public record Bar(String outcome, long count, String grade, String description) {
        public boolean forbidden() {
            return grade.equals("FORBIDDEN");
        }
    }

    public long total() {
        return bars.stream().mapToLong(Bar::count).sum();
    }
}
