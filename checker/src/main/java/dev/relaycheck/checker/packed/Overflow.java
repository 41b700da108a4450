package dev.relaycheck.checker.packed;

/** A value grew past its bit field (or a logic's answer past what the encoding holds). */
public final class Overflow extends Fallback {
    private final boolean tokens;

    public Overflow(String message) {
        this(message, false);
    }

    Overflow(String message, boolean tokens) {
        super(message);
        this.tokens = tokens;
    }

    /** Whether it was a token that grew past its field: renumbered canonically, the space may still fit. */
    public boolean tokens() {
        return tokens;
    }
}
