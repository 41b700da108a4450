package dev.relaycheck.checker.search;

/**
 * Where an exhaustive search's threads spent their time, task by task: expanding states (successors,
 * invariant checks, fingerprints, healing runs), adding successors to the visited set, and numbering and
 * storing the new states. Each is thread time summed over the threads, so that the bench can say what limits
 * a search; like {@link SearchResult#nanos()}, it is reported and never shapes a result.
 */
public record PhaseTimes(long expandNanos, long visitedNanos, long numberNanos) {
    /** For a search that has no such phases (random and PCT walks). */
    public static final PhaseTimes NONE = new PhaseTimes(0, 0, 0);

    /**
     * The thread time of a search that ran {@code wallNanos} on {@code threads} threads that went to none of
     * the tasks: waiting for each other, summing the tallies, turning levels over, progress lines.
     */
    public long otherNanos(long wallNanos, int threads) {
        return wallNanos * threads - expandNanos - visitedNanos - numberNanos;
    }
}
