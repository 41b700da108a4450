package dev.relaycheck.jdbc.world;

/**
 * Points inside a poller's work where a race test may stall it (a GC pause, a slow network). The
 * sequential conformance check never pauses; the race harness sleeps for seeded random times.
 */
public interface Pauses {
    /** Where the poller stands. */
    enum Point {
        /** Between the claim's read and its write (inside the transaction for an atomic claim). */
        MID_CLAIM,
        /** After the claim committed, before the consumer transaction. */
        BEFORE_DELIVER,
        /** After the consumer committed, before the acknowledgement. */
        BEFORE_ACK,
        /** Inside a deliver-and-ack transaction: the handler applied the effect (inside or outside it). */
        AFTER_HANDLER_EFFECT,
        /** Inside a deliver-and-ack transaction: the relay acknowledged (its ack or delete ran), not yet committed. */
        BEFORE_ACK_COMMIT
    }

    /**
     * Thrown by a pause to kill the poller where it stands (the race harness's crash inside a transaction):
     * the poller rolls back what is open and crashes; what already committed (an effect outside) stays.
     */
    final class Killed extends RuntimeException {
        public Killed() {
            super("poller killed inside its transaction", null, false, false);
        }
    }

    void at(Point point);

    Pauses NONE = point -> { };
}
