package dev.relaycheck.lincheck;

import dev.relaycheck.model.Held;

import java.util.List;
import java.util.Objects;

/**
 * What a claim answered, as the check compares it: the rows granted, in order, and those whose token was not above
 * a token the row had been granted before (a re-claim must issue a greater one). The token values themselves are
 * the store's own choice (a counter with gaps, a row version) and are shown, never compared.
 *
 * @param rows     the granted rows' ids, in the order the claim returned them
 * @param reused   the granted rows whose token was not above an earlier grant of the same row
 * @param shown    the grants as the store returned them, with the reuse said, e.g. {@code [E1/t7]}
 */
public record Claimed(List<String> rows, List<String> reused, String shown) {
    public Claimed {
        rows = List.copyOf(rows);
        reused = List.copyOf(reused);
    }

    /** A claim's answer; {@code earlier} gives, per granted row, the highest token it was granted before, or none. */
    static Claimed of(List<Held> grants, java.util.function.Function<String, Long> earlier) {
        List<String> rows = new java.util.ArrayList<>();
        List<String> reused = new java.util.ArrayList<>();
        List<String> shown = new java.util.ArrayList<>();
        for (Held h : grants) {
            rows.add(h.eventId());
            Long before = earlier.apply(h.eventId());
            if (before != null && h.token() <= before) {
                reused.add(h.eventId());
                shown.add(h + " (not above t" + before + ", granted for " + h.eventId() + " before)");
            } else {
                shown.add(h.toString());
            }
        }
        return new Claimed(rows, reused, "[" + String.join(", ", shown) + "]");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Claimed c && rows.equals(c.rows) && reused.equals(c.reused);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rows, reused);
    }

    @Override
    public String toString() {
        return shown;
    }
}
