package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.LogicFault;
import dev.relaycheck.checker.SearchResult;

import java.util.List;

/**
 * The exit code of searches in which the logic under test broke its contract: NON-DETERMINISM (7) before
 * LOGIC-ERROR (6), both before any verdict on the invariants, for nothing found about a logic that is not a
 * function can be trusted.
 */
final class LogicFaultExits {
    private LogicFaultExits() {
    }

    /** 7 if a search met non-determinism, else 6 if one met a logic error, else {@code otherwise}. */
    static int of(List<SearchResult> results, int otherwise) {
        boolean error = false;
        for (SearchResult r : results) {
            if (r.logicFault().map(LogicFault::isNonDeterminism).orElse(false)) {
                return RelaycheckCli.NON_DETERMINISM;
            }
            error |= r.logicFault().isPresent();
        }
        return error ? RelaycheckCli.LOGIC_ERROR : otherwise;
    }
}
