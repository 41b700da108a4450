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

    /**
     * Whether {@code scenario} can make this variant decide differently from the reference logic. A variant whose
     * mistake lives in a decision only a renewal, skew or cleanup scenario asks (a renewal, a skewed clock, a cursor that overlapping
     * producers can pass) takes exactly the reference logic's steps to the same states where that hazard is
     * off, so a search may run the reference logic in its place (and the packed engine with it).
     */
    public boolean exercisedBy(dev.relaycheck.model.Scenario scenario) {
        return true;
    }
}
