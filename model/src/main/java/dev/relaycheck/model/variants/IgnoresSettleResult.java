package dev.relaycheck.model.variants;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Shipped;

/**
 * Catalogue: a stale worker's complete or release matches no row (its lease was taken
 * over), the worker does not read the update count, believes it succeeded and acts on that belief: it runs
 * its cleanup, unlocking the row by id ({@code UPDATE outbox SET locked_by = NULL, lease_token = NULL WHERE id
 * = ?}), the complete-then-unlock of job queues whose complete returns nothing the worker checks. The unlock
 * wipes the live lease of the poller that took the row over, so a third poller can claim it while the second
 * still works on it.
 */
@Shipped
public final class IgnoresSettleResult extends BrokenVariant {
    public IgnoresSettleResult() {
        super("ignores-settle-result", "the poller ignores whether its ack or release matched a row, believes it did, "
                + "and unlocks the row by id afterwards, so a stale worker wipes the live lease of the poller that took the "
                + "row over (a complete that silently did nothing, followed by cleanup)", Invariant.STALE_ACK_REJECTED);
    }

    @Override
    public boolean readsSettleResult() {
        return false;
    }

    @Override
    public boolean unlocksAfterSettling() {
        return true;
    }
}
