package dev.relaycheck.model;

import java.util.List;

/**
 * A poller's local memory: what it claimed and where it is in its batch. A crash wipes it.
 *
 * @param phase   what the poller does next with the head of its batch
 * @param batch   rows it holds, head first
 * @param readSet rows seen by the first half of a check-then-act claim, not yet written
 */
public record PollerState(Phase phase, List<Held> batch, List<String> readSet) {

    /** Where a poller stands. The step it may take next follows from the phase. */
    public enum Phase {
        /** Holds nothing; may claim. */
        IDLE,
        /** Read claimable rows (check-then-act claim); the write is still to come. */
        CLAIMING,
        /** Must deliver the head of its batch. */
        TO_DELIVER,
        /** Committed the first of a two-transaction consumer; the second is still to come. */
        DELIVERING,
        /** Must acknowledge the head of its batch. */
        TO_ACK,
        /** Delivery failed; must release the head of its batch. */
        TO_RELEASE
    }

    public PollerState {
        batch = List.copyOf(batch);
        readSet = List.copyOf(readSet);
    }

    public static final PollerState IDLE = new PollerState(Phase.IDLE, List.of(), List.of());

    public Held head() {
        return batch.get(0);
    }

    public boolean isIdle() {
        return phase == Phase.IDLE;
    }

    PollerState at(Phase next) {
        return new PollerState(next, batch, readSet);
    }

    /** Done with the head; carry on with the rest of the batch or go idle. */
    PollerState advance(Phase firstPhaseOfItem) {
        if (batch.size() <= 1) {
            return IDLE;
        }
        return new PollerState(firstPhaseOfItem, batch.subList(1, batch.size()), List.of());
    }

    @Override
    public String toString() {
        return phase + (batch.isEmpty() ? "" : batch.toString()) + (readSet.isEmpty() ? "" : "read" + readSet);
    }
}
