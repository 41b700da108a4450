package dev.relaycheck.checker.packed;

/**
 * The packed search cannot go on (a value past its field, a logic answer it cannot hold, the logic broke
 * its contract); the caller runs the readable model, the definition, from the start, saying why.
 */
public class Fallback extends RuntimeException {
    public Fallback(String message) {
        super(message, null, false, false);
    }
}
