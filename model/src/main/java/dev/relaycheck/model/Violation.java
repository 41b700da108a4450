package dev.relaycheck.model;

/**
 * An invariant that broke, with what broke it in words a user understands.
 *
 * @param invariant the invariant
 * @param detail    the concrete fact, e.g. "EVENT-61 applied 2 times"
 */
public record Violation(Invariant invariant, String detail) {
    @Override
    public String toString() {
        return invariant + ": " + detail + " (required: " + invariant.message() + ")";
    }
}
