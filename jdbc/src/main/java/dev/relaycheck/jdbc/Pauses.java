package dev.relaycheck.jdbc;

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
        BEFORE_ACK
    }

    void at(Point point);

    Pauses NONE = point -> { };
}
