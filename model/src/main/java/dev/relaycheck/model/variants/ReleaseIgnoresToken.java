package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: release clears the lease by event id alone, so a stale poller frees its successor's lease */
@Shipped
public final class ReleaseIgnoresToken extends BrokenVariant {
    public ReleaseIgnoresToken() {
        super("release-ignores-token", "release clears the lease by event id alone, so a stale poller frees its successor's lease", Invariant.STALE_ACK_REJECTED);
    }

    @Override
    public boolean acceptsRelease(OutboxRow row, long token) {
        return row.isPending(); // WHERE id = ? AND status = 'PENDING', no token
    }
}
