package dev.relaycheck.checker.space;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Violation;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which invariants a search judges, and whether it ends at its first violation or goes on to report every
 * invariant it can break. Either way a state that breaks a judged invariant is not expanded: each counterexample
 * breaks nothing judged before its last step, so it is that invariant's own shortest trace, not a consequence of
 * another break. A violation of an invariant not judged is no violation to the search: it goes on through it.
 *
 * @param invariants     the invariants judged
 * @param everyInvariant go on past a violation until every judged invariant is found or the space ends
 */
public record Judging(Set<Invariant> invariants, boolean everyInvariant) {
    /** Every invariant, each reported with its shortest trace: what a user's check runs. */
    public static final Judging EVERY = new Judging(EnumSet.allOf(Invariant.class), true);
    /** Every invariant, the search ending at the first violation: enough to know a mistake is caught. */
    public static final Judging FIRST = new Judging(EnumSet.allOf(Invariant.class), false);

    public Judging {
        if (invariants.isEmpty()) {
            throw new IllegalArgumentException("a search judges at least one invariant");
        }
        invariants = java.util.Collections.unmodifiableSet(EnumSet.copyOf(invariants)); // in declaration order
    }

    /** Only {@code judged}, going on past violations as this one does. */
    public Judging only(Set<Invariant> judged) {
        return new Judging(judged, everyInvariant);
    }

    /** Whether every invariant is judged. */
    public boolean all() {
        return invariants.size() == Invariant.values().length;
    }

    public boolean judges(Invariant i) {
        return invariants.contains(i);
    }

    /** The judged invariants, a bit per ordinal. */
    public int mask() {
        return mask(invariants.stream().toList(), true);
    }

    /** The invariants of {@code violations} that are judged, a bit per ordinal. */
    public int maskOf(Collection<Violation> violations) {
        return mask(violations.stream().map(Violation::invariant).toList(), false);
    }

    private int mask(Collection<Invariant> of, boolean all) {
        int m = 0;
        for (Invariant i : of) {
            if (all || invariants.contains(i)) {
                m |= 1 << i.ordinal();
            }
        }
        return m;
    }
}
