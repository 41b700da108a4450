package dev.relaycheck.lincheck;

import dev.relaycheck.model.Invariant;

/** A relay-protocol round broke a named invariant; the message starts with the invariant's name. */
public final class ProtocolViolation extends AssertionError {
    private final Invariant invariant;

    public ProtocolViolation(Invariant invariant, String detail) {
        super(invariant.name() + ": " + detail);
        this.invariant = invariant;
    }

    public Invariant invariant() {
        return invariant;
    }
}
