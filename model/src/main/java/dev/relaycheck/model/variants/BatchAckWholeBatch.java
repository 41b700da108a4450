package dev.relaycheck.model.variants;

import dev.relaycheck.model.Held;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Shipped;

import java.util.ArrayList;
import java.util.List;

/**
 * Catalogue: the ack marks the poller's whole batch DELIVERED, fenced by each row's
 * token ({@code UPDATE outbox SET status = 'DELIVERED' WHERE (id, lease_token) IN (:batch)}), on the first
 * delivery that succeeds. The hand-rolled batch relay: claim N rows, publish them, mark the batch processed.
 * Rows of the batch not yet delivered are DELIVERED with no effect; a crash (or a failed publish that is
 * swallowed) then loses them for good.
 */
@Shipped
public final class BatchAckWholeBatch extends BrokenVariant {
    public BatchAckWholeBatch() {
        super("batch-ack-whole-batch", "the ack marks every row of the poller's batch DELIVERED (fenced by each row's "
                + "token) after the first delivery, so rows of the batch never delivered are DELIVERED with no effect "
                + "(a batch relay that marks the batch processed, not the rows it published)", Invariant.NO_LOST_EVENT);
    }

    @Override
    public List<String> rowsAckTouches(OutboxRow acked, long token, String poller, List<Held> batch, List<OutboxRow> outbox) {
        List<String> ids = new ArrayList<>();
        for (Held h : batch) {
            for (OutboxRow r : outbox) {
                if (r.id().equals(h.eventId()) && r.currentToken() == h.token()) {
                    ids.add(h.eventId()); // fenced per row: only rows this poller still holds
                }
            }
        }
        return ids;
    }
}
