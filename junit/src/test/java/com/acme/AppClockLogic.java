package com.acme;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.OutboxRow;

import java.util.List;

/** A team's logic that writes and judges lease expiry on the poller's own clock: right only while clocks agree. */
public class AppClockLogic extends CorrectRelayLogic {
    @Override
    public String id() {
        return "acme-app-clock";
    }

    @Override
    public String description() {
        return "the team's relay: lease expiry on the application's clock";
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
        return row.isPending() && (row.lease() == null || row.lease().expiry() <= pollerClock) && isHeadOfAggregate(row, outbox);
    }

    @Override
    public int leaseExpiry(int now, int leaseTicks, int pollerClock) {
        return pollerClock + leaseTicks;
    }
}
