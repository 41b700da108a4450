package dev.relaycheck.model;

/**
 * One row of the outbox table.
 *
 * @param event  the event it carries
 * @param status PENDING until a fenced ack marks it DELIVERED
 * @param lease  the current lease, or {@code null} when the row is unclaimed
 */
public record OutboxRow(Event event, RowStatus status, Lease lease) {

    public static OutboxRow pending(Event event) {
        return new OutboxRow(event, RowStatus.PENDING, null);
    }

    public String id() {
        return event.id();
    }

    public boolean isPending() {
        return status == RowStatus.PENDING;
    }

    public boolean hasLease() {
        return lease != null;
    }

    /** The row's current fencing token, or -1 when it holds no lease. */
    public long currentToken() {
        return lease == null ? -1 : lease.token();
    }

    /** True when nobody holds a lease on this row that is still live at {@code now}. */
    public boolean unleasedAt(int now) {
        return lease == null || lease.expiredAt(now);
    }

    public OutboxRow withLease(Lease newLease) {
        return new OutboxRow(event, status, newLease);
    }

    public OutboxRow delivered() {
        return new OutboxRow(event, RowStatus.DELIVERED, null);
    }

    @Override
    public String toString() {
        return event.id() + ":" + status + (lease == null ? "" : "[" + lease + "]");
    }
}
