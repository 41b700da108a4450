package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/**
 * Catalogue: the relay reads rows after the last sequence it saw. A sequence is allocated when the producer's
 * transaction inserts the row, not when it commits, so with overlapping producers a row can become visible
 * after a row with a later sequence was read: the cursor has passed it, and no read ever returns it.
 */
@Shipped
public final class CursorBySequence extends BrokenVariant {
    public CursorBySequence() {
        super("cursor-by-sequence", "the relay reads rows after the last sequence it saw (WHERE seq > :cursor): sequences "
                + "are allocated at insert, not at commit, so a row whose transaction commits after a later row was read "
                + "is skipped forever (the watermark skip of polling relays over serial or identity ids; fixes: claim by "
                + "status, or read only below the oldest open transaction's sequence)", Invariant.NO_LOST_EVENT);
    }

    @Override
    public CursorRule cursorRule() {
        return CursorRule.AFTER_LAST_SEEN;
    }

    /** Only a scenario with overlapping producers asks the decision this variant gets wrong. */
    @Override
    public boolean exercisedBy(Scenario scenario) {
        return scenario.producersOverlap();
    }
}
