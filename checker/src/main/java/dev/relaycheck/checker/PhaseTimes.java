package dev.relaycheck.checker;

/**
 * Where an exhaustive search's wall time went, phase by phase: expanding states (successors, invariant checks,
 * fingerprints, healing runs), adding successors to the visited set, and numbering and storing the new states.
 * Each is the wall time of that phase across the workers, so the bench can say what limits a search; like
 * {@link SearchResult#nanos()}, it is reported and never shapes a result.
 */
public record PhaseTimes(long expandNanos, long visitedNanos, long numberNanos) {
    /** For a search that has no such phases (random and PCT walks). */
    public static final PhaseTimes NONE = new PhaseTimes(0, 0, 0);

    /** The time of a search's {@code total} that went to none of the phases: turning levels over, progress lines. */
    public long otherNanos(long total) {
        return total - expandNanos - visitedNanos - numberNanos;
    }
}
