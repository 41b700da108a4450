package dev.relaycheck.junit;

/**
 * What one property check of one relay found, and what it covered: a passing check says as much as its
 * {@link Coverage} does, and no more.
 *
 * @param relay    what was checked: "logic ID" or "relay ID"
 * @param property the property checked
 * @param passed   whether the relay has it on what was run
 * @param coverage what the check ran and left out
 */
public record PropertyResult(String relay, Property property, boolean passed, Coverage coverage) {
    /** One line for the test's output: the verdict, then the coverage. */
    public String line() {
        return "relaycheck: " + relay + (passed ? " has" : " breaks") + " the property \"" + property.claim() + "\" "
                + property.invariants() + (passed ? " on what was run: " : ": ") + coverage.line();
    }
}
