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
    AFTER_ACK("after-ack"),
    /**
     * Inside a deliver-and-ack transaction: the relay's handler applied the consumer's effect (inside the
     * transaction: not committed; outside it: committed); the ack or delete has not run.
     */
    AFTER_HANDLER_EFFECT("after-handler-effect"),
    /** Inside a deliver-and-ack transaction: the ack or delete ran, its commit has not. */
    BEFORE_ACK_COMMIT("before-ack-commit");

    private final String id;

    CutPoint(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Whether the point lies inside a transaction (reached through a pause point, not after a commit). */
    public boolean insideTransaction() {
        return this == AFTER_HANDLER_EFFECT || this == BEFORE_ACK_COMMIT;
    }

    /** The pause point inside the deliver-and-ack transaction this cut kills at (null for a cut after a commit). */
    public dev.relaycheck.jdbc.world.Pauses.Point pausePoint() {
        return switch (this) {
            case AFTER_HANDLER_EFFECT -> dev.relaycheck.jdbc.world.Pauses.Point.AFTER_HANDLER_EFFECT;
            case BEFORE_ACK_COMMIT -> dev.relaycheck.jdbc.world.Pauses.Point.BEFORE_ACK_COMMIT;
            default -> null;
        };
    }

    /**
     * The cut points a relay passes through: a deliver-and-ack relay commits its effect and ack together (its
     * consumer commit is its ack), and has the two points inside that transaction; the others the four commits.
     */
    public static java.util.List<CutPoint> of(boolean deliversAndAcks) {
        return deliversAndAcks ? java.util.List.of(AFTER_PRODUCER_COMMIT, AFTER_CLAIM, AFTER_HANDLER_EFFECT, BEFORE_ACK_COMMIT,
                AFTER_CONSUMER_COMMIT) : java.util.List.of(AFTER_PRODUCER_COMMIT, AFTER_CLAIM, AFTER_CONSUMER_COMMIT, AFTER_ACK);
    }

    /** Whether a step with this outcome is a commit of this kind. */
    public boolean matches(Outcome o) {
        return switch (this) {
            case AFTER_HANDLER_EFFECT, BEFORE_ACK_COMMIT -> false;
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
