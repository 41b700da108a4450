package dev.relaycheck.model;

import java.util.List;

/**
 * The reference relay logic. Claimable: PENDING, no live lease, and no earlier PENDING row of the same
 * aggregate. Every claim issues a token above every earlier one. Acks and releases are fenced by token
 * alone (not by time). The consumer dedups by event id, marker and effect in one transaction.
 */
@Shipped
public class CorrectRelayLogic implements RelayLogic {

    public static final String ID = "correct";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "reference logic: atomic claim of head-of-aggregate rows, fresh token per claim, "
                + "token-fenced ack and release, consumer dedup by event id in one transaction";
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
        return row.isPending() && row.unleasedAt(now) && isHeadOfAggregate(row, outbox);
    }

    /** No earlier PENDING row of the same aggregate: this is what keeps per-aggregate order. */
    protected static boolean isHeadOfAggregate(OutboxRow row, List<OutboxRow> outbox) {
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
