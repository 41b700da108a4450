package dev.relaycheck.checker.packed;

/**
 * The kinds of step of the packed model: a step is an int, {@code kind << 4 | argument}, its argument the poller
 * for a poller's step, the event for a purge or a commit, the skew + max-skew for the choice of a poller's clock
 * skew.
 */
final class StepKinds {
    private StepKinds() {
    }

    static final int PRODUCE = 0;
    static final int PRODUCE_FAILS_STEP = 1;
    static final int CLAIM = 2;
    static final int DELIVER = 3;
    static final int ACK = 4;
    static final int RELEASE = 5;
    static final int TICK = 6;
    static final int CRASH = 7;
    static final int LOSE_ACK = 8;
    static final int DELIVER_FAILS_STEP = 9;
    static final int RENEW = 10;
    static final int PURGE = 11;
    static final int CLEANUP = 12;
    static final int SKEW = 13;
    static final int BEGIN = 14;
    static final int COMMIT = 15;
    /** Kinds of step: a step code is below {@code KINDS << 4}. */
    static final int KINDS = 16;

    /** Whether a step of this kind is a poller's, its argument the poller. */
    static boolean ofPoller(int kind) {
        return kind == CLAIM || kind == DELIVER || kind == ACK || kind == RELEASE || kind == CRASH || kind == LOSE_ACK
                || kind == DELIVER_FAILS_STEP || kind == RENEW;
    }
}
