package dev.relaycheck.model;

/**
 * One business event that travels through the outbox.
 *
 * @param id        stable event id; the consumer's dedup marker is keyed by it
 * @param aggregate the aggregate it belongs to (in the reference domain: the SKU whose stock it changes)
 * @param seq       commit order; effects of one aggregate must land in this order
 * @param quantity  units taken from the aggregate's stock when the effect is applied
 * @param payload   the message body; two events may carry equal payloads (which is why dedup by payload is a bug)
 */
public record Event(String id, String aggregate, int seq, int quantity, String payload) {

    public Event {
        Names.requireToken(id, "event id");
        Names.requireToken(aggregate, "aggregate");
        if (quantity <= 0) {
            throw new IllegalArgumentException("event " + id + ": quantity must be positive, got " + quantity);
        }
    }

    /** An event whose payload is derived from what it does, so equal effects have equal payloads. */
    public Event(String id, String aggregate, int seq, int quantity) {
        this(id, aggregate, seq, quantity, "take " + quantity + " of " + aggregate);
    }
}
