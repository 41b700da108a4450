package dev.relaycheck.checker.search;

import java.util.Collection;

/**
 * What a search, or a whole command, found, in order of precedence: when several scenarios say different
 * things the command reports the last of these that any of them says (a violation outweighs everything,
 * a clean result nothing). The exit code of each is fixed in {@code cli.ExitCodes}.
 */
public enum Verdict {
    /** Complete, no violation, every required witness reached. */
    CLEAN,
    /** Clean, but a required witness was never reached: the search proved nothing about that hazard. */
    VACUOUS,
    /** A bound (--max-states, the heap, a time limit) stopped the search before it covered its space. */
    INCOMPLETE,
    /** An invariant broke. */
    VIOLATION,
    /** The logic under test threw an exception: what was found about it before is unreliable. */
    LOGIC_ERROR,
    /** The logic under test answered the same question differently: nothing found about it can be trusted. */
    NON_DETERMINISM;

    /** The verdict of one search. */
    public static Verdict of(SearchResult r) {
        if (r.logicFault().isPresent()) {
            return r.logicFault().get().isNonDeterminism() ? NON_DETERMINISM : LOGIC_ERROR;
        }
        if (r.violated()) {
            return VIOLATION;
        }
        if (r.incomplete().isPresent()) {
            return INCOMPLETE;
        }
        if (!r.missingWitnesses().isEmpty()) {
            return VACUOUS;
        }
        return CLEAN;
    }

    /** The verdict of several: the one of highest precedence; CLEAN for none. */
    public static Verdict worst(Collection<Verdict> verdicts) {
        Verdict w = CLEAN;
        for (Verdict v : verdicts) {
            w = v.compareTo(w) > 0 ? v : w;
        }
        return w;
    }

    /** The verdict of several searches. */
    public static Verdict ofAll(Collection<SearchResult> results) {
        return worst(results.stream().map(Verdict::of).toList());
    }
}
