package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: ack matches the row by event id alone, ignoring the fencing token */
@Shipped
public final class AckIgnoresToken extends BrokenVariant {
    public AckIgnoresToken() {
        super("ack-ignores-token", "ack matches the row by event id alone, ignoring the fencing token", Invariant.STALE_ACK_REJECTED);
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token) {
        return row.isPending(); // WHERE id = ? AND status = 'PENDING', no token
    }
}
