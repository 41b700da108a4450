package dev.relaycheck.model;

/**
 * One row of the outbox table.
 *
 * @param event  the event it carries
 * @param status PENDING until a fenced ack marks it DELIVERED
 * @param lease  the current lease, or {@code null} when the row is unclaimed
 * @param version the row's own fencing version, for a relay that fences by a per-row version
 *                ({@link RelayLogic.TokenPolicy#PER_ROW_VERSION}): the token of its last fenced write, kept when a
 *                release clears the lease; always 0 under a global token counter and on a DELIVERED row (final:
 *                nothing is fenced against it any more)
 */
public record OutboxRow(Event event, RowStatus status, Lease lease, long version) {

    /** A row without a per-row version (a relay with a global token counter). */
    public OutboxRow(Event event, RowStatus status, Lease lease) {
        this(event, status, lease, 0);
    }

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
        return new OutboxRow(event, status, newLease, version);
    }

    /** The same row with per-row version {@code v}. */
    public OutboxRow withVersion(long v) {
        return new OutboxRow(event, status, lease, v);
    }

    public OutboxRow delivered() {
        return new OutboxRow(event, RowStatus.DELIVERED, null);
    }

    @Override
    public String toString() {
        return event.id() + ":" + status + (lease == null ? "" : "[" + lease + "]") + (version == 0 ? "" : "(v" + version + ")");
    }
}
