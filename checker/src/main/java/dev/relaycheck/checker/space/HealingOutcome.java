package dev.relaycheck.checker.space;

/** What a state's healing run did (the EVENTUAL_DELIVERY phase), as a space reports it for each state it heals. */
public final class HealingOutcome {
    /** A healing run completed: every event delivered, applied once. */
    public static final int HEALS = 0;
    /** A healing run ran out of steps before it completed: EVENTUAL_DELIVERY. */
    public static final int NEVER_COMPLETES = 1;
    /** A healing run broke a safety invariant on the way. */
    public static final int BREAKS_WHILE_HEALING = 2;

    private HealingOutcome() {
    }
}
