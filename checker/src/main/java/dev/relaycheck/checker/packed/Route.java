package dev.relaycheck.checker.packed;

/**
 * How the search reached a state, kept with the state in one {@code long} so that expanding the state can
 * skip what expanding its parent already settled:
 * <ul>
 *   <li>bits 0-12: the step that reached it, as {@link StepFootprint#step} gives it (all ones: none);
 *   <li>bits 13-57: for each of the first 15 places of the parent's list, what the step there showed, if the
 *       parent took it before this one and it broke nothing: 3 bits, 0 for not known, 1 for no witness, 2 +
 *       the witness's ordinal for one of the first six (a step that shows two, or a later one, is not kept);
 *   <li>bits 58-63: for each of the first 6 pollers, whether its crash from this state is known to lead to a
 *       stored state.
 * </ul>
 *
 * <p>The crash bits. Write crash<sub>p</sub>(x) for x with poller p's slots cleared and the crash counter
 * raised: what a crash of p does. Poller p's bit in u's route says that crash<sub>p</sub>(u) is a state the
 * search reached at u's depth or before, so it is stored before u's level is expanded. It is set where u was
 * reached from s by a step that wrote only p's slots while p was busy (a duplicate delivery, a stale
 * acknowledgement): then crash<sub>p</sub>(u) is crash<sub>p</sub>(s), s's own successor by a crash of p. And
 * it is kept from s where the step reads and writes nothing of p (its footprint): then
 * crash<sub>p</sub>(u) is crash<sub>p</sub>(s)'s successor by that step, one level down from a stored state.
 * (Its crash counter is one higher there, and room was left for both, as {@link StepFootprint} argues for
 * faults.) A crash breaks nothing and shows nothing, so the search counts such a crash and does not take
 * it: 5.8 million of soak's transitions, a tenth of the lookups the diamonds leave. {@code RouteTest} checks
 * both rules on seeded walks.
 */
final class Route {
    private static final int STEP_BITS = 13;
    private static final int NONE = (1 << STEP_BITS) - 1; // the step field of the initial state's route
    private static final int PLACES_KEPT = 15;
    private static final int CRASH_BITS = 58;

    private Route() {
    }

    /** A route: its step, what the parent's earlier steps showed ({@link #outcome}s, or'ed), its crash bits. */
    static long of(int step, long outcomesBefore, int crashKnown) {
        return (long) crashKnown << CRASH_BITS | outcomesBefore | step & NONE;
    }

    /** The step that reached the state, or {@link StepFootprint#NO_STEP}. */
    static int step(long route) {
        int step = (int) route & NONE;
        return step == NONE ? StepFootprint.NO_STEP : step;
    }

    /**
     * The bits of a route that say a step, of footprint {@code footprint}, broke nothing and showed
     * {@code witnesses} (a bit per witness); none for a step past the 15th place, or of an unknown footprint.
     */
    static long outcome(long footprint, int witnesses) {
        long place = StepFootprint.place(footprint);
        long code = witnesses == 0 ? 1 : 2 + Integer.numberOfTrailingZeros(witnesses);
        // a witness past the first six (a renewal's, skew's, producer's or cleanup's) has no code: the step is taken again
        return place < PLACES_KEPT && Integer.bitCount(witnesses) <= 1 && code < 8 ? code << STEP_BITS + 3 * place : 0;
    }

    /**
     * What the step of footprint {@code footprint} showed in the parent, as {@link #outcome} kept it in
     * {@code route}: its witnesses, or -1 if the route does not say.
     */
    static int witnessesBefore(long route, long footprint) {
        long place = StepFootprint.place(footprint);
        int code = place < PLACES_KEPT ? (int) (route >>> STEP_BITS + 3 * place) & 7 : 0;
        return code == 0 ? -1 : code == 1 ? 0 : 1 << code - 2;
    }

    /** The pollers, a bit each, whose crash from the state is known to lead to a stored state. */
    static int crashKnown(long route) {
        return (int) (route >>> CRASH_BITS);
    }
}
