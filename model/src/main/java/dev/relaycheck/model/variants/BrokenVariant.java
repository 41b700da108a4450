package dev.relaycheck.model.variants;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.Invariant;

import java.util.Optional;

/** A catalogue entry: the correct logic with one realistic mistake. */
public abstract class BrokenVariant extends CorrectRelayLogic {
    private final String id;
    private final String mistake;
    private final Invariant breaks;

    protected BrokenVariant(String id, String mistake, Invariant breaks) {
        this.id = id;
        this.mistake = mistake;
        this.breaks = breaks;
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String description() {
        return mistake;
    }

    @Override
    public final Optional<Invariant> expectedViolation() {
        return Optional.of(breaks);
    }
}
