package dev.relaycheck.checker.search;

/**
 * Where an exhaustive search's threads spent their time, task by task: expanding states (successors,
 * invariant checks, fingerprints, healing runs), adding successors to the visited set, and numbering and
 * storing the new states. Each is thread time summed over the threads, so that the bench can say what limits
 * a search; like {@link SearchResult#nanos()}, it is reported and never shapes a result. So are how the crew's
 * steps fell to its threads, and how many healing runs a memory of earlier runs decided.
 */
public record PhaseTimes(long expandNanos, long visitedNanos, long numberNanos, CrewCounts crew, long healingRemembered) {
    /** For a search that has no such phases (random and PCT walks). */
    public static final PhaseTimes NONE = new PhaseTimes(0, 0, 0);

    /** Phase times of a search whose crew's meetings and healing memory are not counted. */
    public PhaseTimes(long expandNanos, long visitedNanos, long numberNanos) {
        this(expandNanos, visitedNanos, numberNanos, CrewCounts.NONE, 0);
    }

    /**
     * How a search's steps fell to its threads: run by all of them ({@code together}); by the calling thread alone,
     * because the step was too small to pay for the meeting at its end ({@code aloneSmall}) or because a member had
     * kept the others waiting just before ({@code aloneAfterWaiting}); and how often a member kept them waiting
     * ({@code slowMeetings}: the calling thread waited longer than half the time it worked itself); and the CPU time
     * its threads spent, the search's own (0 where the JVM does not measure it), which a loaded machine does not
     * stretch as it stretches wall time.
     */
    public record CrewCounts(long together, long aloneSmall, long aloneAfterWaiting, long slowMeetings, long cpuNanos) {
        public static final CrewCounts NONE = new CrewCounts(0, 0, 0, 0, 0);
    }

    /**
     * The thread time of a search that ran {@code wallNanos} on {@code threads} threads that went to none of
     * the tasks: waiting for each other, summing the tallies, turning levels over, progress lines.
     */
    public long otherNanos(long wallNanos, int threads) {
        return wallNanos * threads - expandNanos - visitedNanos - numberNanos;
    }
}
