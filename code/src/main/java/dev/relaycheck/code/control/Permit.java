package dev.relaycheck.code.control;

/** What relaycheck lets a waiting actor do at its {@link Point}. */
public enum Permit {
    /** Go on as the relay's code asks. */
    GO,
    /** The instance's process dies here: its connections are rolled back and closed, it never runs again. */
    CRASH,
    /** The commit happens, and the driver throws as if the connection broke before the acknowledgement came. */
    LOSE_COMMIT,
    /** The consumer fails: the delivery throws and nothing is applied. */
    FAIL_DELIVERY,
    /** The consumer applies the event, then the delivery throws (its acknowledgement is lost). */
    LOSE_DELIVERY
}
