package dev.relaycheck.stress.run;

import org.openjdk.jcstress.annotations.Expect;

/**
 * One outcome row of a test: the observed state (or, for a declared outcome never observed, its pattern),
 * how often it was seen, and how the harness grades it.
 */
public record OutcomeCount(String id, long count, Expect expect, String description) {

    public boolean observed() {
        return count > 0;
    }

    public boolean forbiddenAndObserved() {
        return expect == Expect.FORBIDDEN && observed();
    }
}
