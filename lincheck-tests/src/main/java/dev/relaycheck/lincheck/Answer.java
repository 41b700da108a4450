package dev.relaycheck.lincheck;

/** What a poller's deliver, ack or release answered. */
public enum Answer {
    /** The consumer applied the effect. */
    APPLIED,
    /** The consumer found the event's marker and changed nothing. */
    DUPLICATE,
    /** The ack matched: the row is DELIVERED. */
    ACKED,
    /** The release matched: the row's lease is cleared. */
    RELEASED,
    /** The ack or release did not match the row: nothing changed. */
    STALE,
    /** The poller was never granted the row, so it has no token to present; the store was not called. */
    NOT_HELD
}
