package com.example.shapes;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic;

import java.util.List;

/**
 * The decisions every shape here shares, as a team writes them: claim a PENDING row whose lease is gone and that is
 * the oldest PENDING row of its aggregate, fence the ack and release by the token the claim wrote, dedup by event id.
 */
public abstract class LeasedOutbox implements RelayLogic {

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
        if (!row.isPending() || !row.unleasedAt(now)) {
            return false;
        }
        for (OutboxRow other : outbox) {
            if (other.isPending() && other.event().aggregate().equals(row.event().aggregate())
                    && other.event().seq() < row.event().seq()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public long issueToken(OutboxRow row, long lastIssued) {
        return lastIssued + 1;
    }

    @Override
    public int leaseExpiry(int now, int leaseTicks) {
        return now + leaseTicks;
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token) {
        return row.isPending() && row.hasLease() && row.lease().token() == token;
    }

    @Override
    public boolean acceptsRelease(OutboxRow row, long token) {
        return row.isPending() && row.hasLease() && row.lease().token() == token;
    }

    @Override
    public String dedupKey(Event event, long deliveryToken) {
        return event.id();
    }
}
