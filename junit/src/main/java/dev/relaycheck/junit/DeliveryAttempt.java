package dev.relaycheck.junit;

/**
 * One delivery attempt, as the consumer saw it: a poller handed an event to the consumer with the token it
 * held. A split consumer's two transactions are one attempt (one entry), and so is a delivery whose
 * transaction failed.
 *
 * @param attempt the attempt's number, from 1, in the order they happened
 * @param poller  who delivered
 * @param eventId the event
 * @param token   the fencing token the poller held
 * @param payload the payload the consumer received
 * @param result  what the consumer did with it
 */
public record DeliveryAttempt(int attempt, String poller, String eventId, long token, String payload, Result result) {

    /** What the consumer did with one delivery. */
    public enum Result {
        /** The effect was applied (the marker written, in the same transaction or, for a split consumer, both halves). */
        APPLIED,
        /** The consumer recognised the event and changed nothing. */
        DUPLICATE,
        /** The consumer's transaction failed before its commit; nothing changed. */
        ROLLED_BACK,
        /** A split consumer committed its first half and the poller died before the second. */
        INTERRUPTED
    }

    DeliveryAttempt completed(Result r) {
        return new DeliveryAttempt(attempt, poller, eventId, token, payload, r);
    }

    @Override
    public String toString() {
        return "#" + attempt + " " + poller + " " + eventId + "/t" + token + " " + result;
    }
}
