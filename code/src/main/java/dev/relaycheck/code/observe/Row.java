package dev.relaycheck.code.observe;

import java.time.Instant;
import java.util.Objects;

/**
 * One outbox row as the team's outbox query reads it, in relaycheck's terms.
 *
 * @param id          the row's id (the relay's own: a UUID, a number, relaycheck's event name)
 * @param aggregate   the aggregate it belongs to
 * @param orderKey    where it stands among its aggregate's events
 * @param delivered   whether the relay is done with it
 * @param owner       the instance id holding its lease, or null
 * @param leaseExpiry when that lease runs out, or null (no lease, or one that never runs out)
 * @param token       the fencing token or row version, or null
 */
public record Row(String id, String aggregate, OrderKey orderKey, boolean delivered, String owner, Instant leaseExpiry,
                  String token) {

    /** Whether someone holds it under a lease: an owner, an expiry or a token on a row not delivered. */
    public boolean leased() {
        return !delivered && (owner != null || leaseExpiry != null || token != null);
    }

    /** The lease as a value: two rows hold the same lease when these are equal. */
    public String lease() {
        return leased() ? (owner == null ? "?" : owner) + (token == null ? "" : "/" + token)
                + (leaseExpiry == null ? "" : " until " + leaseExpiry) : "";
    }

    /** Whether the lease it holds is live at {@code now}: no expiry, or one still ahead (an expiry now is over). */
    public boolean liveAt(Instant now) {
        return leased() && (leaseExpiry == null || now.isBefore(leaseExpiry));
    }

    /** What a trace shows of it: {@code PENDING}, {@code PENDING[relay-1 until ...]} or {@code DELIVERED}. */
    public String state(Clocks clocks) {
        if (delivered) {
            return "DELIVERED";
        }
        if (!leased()) {
            return "PENDING";
        }
        return "PENDING[" + (owner == null ? "" : owner) + (token == null ? "" : (owner == null ? "" : " ") + "v" + token)
                + (leaseExpiry == null ? "" : " until " + clocks.show(leaseExpiry)) + "]";
    }

    public boolean sameAs(Row o) {
        return o != null && delivered == o.delivered && Objects.equals(owner, o.owner) && Objects.equals(leaseExpiry, o.leaseExpiry)
                && Objects.equals(token, o.token);
    }

    /** How a trace writes instants of the relay's clock: seconds from the start of the run. */
    public interface Clocks {
        String show(Instant instant);
    }
}
