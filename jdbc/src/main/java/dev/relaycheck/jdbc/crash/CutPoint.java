package dev.relaycheck.jdbc.crash;

import dev.relaycheck.model.Outcome;

import java.util.Arrays;
import java.util.Optional;

/** Where the child relay stops and waits to be killed: right after one of its commits. */
public enum CutPoint {
    /** The producer committed (for a split producer: its first commit, the business row alone). */
    AFTER_PRODUCER_COMMIT("after-producer-commit"),
    /** A claim committed leases; nothing delivered yet. */
    AFTER_CLAIM("after-claim"),
    /** The consumer committed (for a split consumer: its first commit); the acknowledgement has not run. */
    AFTER_CONSUMER_COMMIT("after-consumer-commit"),
    /** The acknowledgement committed. */
    AFTER_ACK("after-ack");

    private final String id;

    CutPoint(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Whether a step with this outcome is a commit of this kind. */
    public boolean matches(Outcome o) {
        return switch (this) {
            case AFTER_PRODUCER_COMMIT -> o instanceof Outcome.BusinessWritten || o instanceof Outcome.Produced;
            case AFTER_CLAIM -> o instanceof Outcome.Claimed c && !c.grants().isEmpty();
            case AFTER_CONSUMER_COMMIT -> o instanceof Outcome.Applied || o instanceof Outcome.HalfApplied;
            case AFTER_ACK -> o instanceof Outcome.Acked;
        };
    }

    public static Optional<CutPoint> byId(String id) {
        return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst();
    }
}
