package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.search.Verdict;

import java.util.Collection;

/** The exit codes, and the one place that turns what a command found into its exit code. */
public final class ExitCodes {
    public static final int CLEAN = 0;
    public static final int VIOLATION = 1;
    public static final int USAGE = 2;
    public static final int INTERNAL = 3;
    /** A bound (--max-states, a time budget) stopped the search before it covered its space. */
    public static final int INCOMPLETE = 4;
    /** The search was clean but never reached a witness its scenario requires: it proved nothing. */
    public static final int VACUOUS = 5;
    /** The logic under test threw an exception (which method, at which step, is reported). */
    public static final int LOGIC_ERROR = 6;
    /** The logic under test answered the same question differently (it must be a pure function). */
    public static final int NON_DETERMINISM = 7;

    /** The help footer of every command: what each exit code means, and which wins when scenarios disagree. */
    static final String FOOTER = """
            %nExit codes:
              0  clean: complete, no violation, every required witness reached
              1  violation; check: also a variant that escaped, or a failed checker;
                 replay: the recorded violation reproduced
              2  usage error (one line on stderr)
              3  internal error, or out of memory
              4  INCOMPLETE: a bound stopped the search (--max-states, the heap);
                 check: also a checker that could not complete
              5  VACUOUS: clean, but a witness the scenario requires never reached
              6  LOGIC-ERROR: the logic under test threw an exception
              7  NON-DETERMINISM: the logic under test answered the same question
                 differently
            Several scenarios: the first of non-determinism, logic error, violation,
            incomplete, vacuous, clean that any of them says decides (a logic that is
            not a function, or throws, makes every other finding about it unreliable).
            replay exits 0 when the violation no longer reproduces.""";

    private ExitCodes() {
    }

    static int of(Verdict v) {
        return switch (v) {
            case CLEAN -> ExitCodes.CLEAN;
            case VACUOUS -> ExitCodes.VACUOUS;
            case INCOMPLETE -> ExitCodes.INCOMPLETE;
            case NON_DETERMINISM -> ExitCodes.NON_DETERMINISM;
            case LOGIC_ERROR -> ExitCodes.LOGIC_ERROR;
            case VIOLATION -> ExitCodes.VIOLATION;
        };
    }

    static int of(Collection<SearchResult> results) {
        return of(Verdict.ofAll(results));
    }
}
