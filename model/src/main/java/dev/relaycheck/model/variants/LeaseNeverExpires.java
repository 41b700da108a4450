package dev.relaycheck.model.variants;

import dev.relaycheck.model.*;

/** Catalogue: leases are written without an expiry, so a crashed poller's rows stay claimed forever */
@Shipped
public final class LeaseNeverExpires extends BrokenVariant {
    public LeaseNeverExpires() {
        super("lease-never-expires", "leases are written without an expiry, so a crashed poller's rows stay claimed forever", Invariant.EVENTUAL_DELIVERY);
    }

    @Override
    public int leaseExpiry(int now, int leaseTicks) {
        return Lease.NEVER;
    }
}
