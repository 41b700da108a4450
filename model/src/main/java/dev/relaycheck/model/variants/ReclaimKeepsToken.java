package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: a re-claim after expiry keeps the old fencing token instead of issuing a new one */
@Shipped
public final class ReclaimKeepsToken extends BrokenVariant {
    public ReclaimKeepsToken() {
        super("reclaim-keeps-token", "a re-claim after expiry keeps the old fencing token instead of issuing a new one", Invariant.STALE_ACK_REJECTED);
    }

    @Override
    public long issueToken(OutboxRow row, long lastIssued) {
        return row.hasLease() ? row.lease().token() : lastIssued + 1; // token column left as it was
    }
}
