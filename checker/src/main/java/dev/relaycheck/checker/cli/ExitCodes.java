package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.Verdict;

import java.util.Collection;

/** The one place that turns what a command found into its exit code (the codes are RelaycheckCli's constants). */
final class ExitCodes {
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
            case CLEAN -> RelaycheckCli.CLEAN;
            case VACUOUS -> RelaycheckCli.VACUOUS;
            case INCOMPLETE -> RelaycheckCli.INCOMPLETE;
            case NON_DETERMINISM -> RelaycheckCli.NON_DETERMINISM;
            case LOGIC_ERROR -> RelaycheckCli.LOGIC_ERROR;
            case VIOLATION -> RelaycheckCli.VIOLATION;
        };
    }

    static int of(Collection<SearchResult> results) {
        return of(Verdict.ofAll(results));
    }
}
