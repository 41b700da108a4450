package dev.relaycheck.model;

/**
 * The producing service: which scenario event it commits next, and whether it stands between the two
 * transactions of a producer that writes the outbox outside the business transaction.
 *
 * @param next          index into the scenario's events of the next event to produce
 * @param businessOnly  the business write of event {@code next} committed, its outbox insert did not yet
 */
public record ProducerState(int next, boolean businessOnly) {
    @Override
    public String toString() {
        return "next=" + next + (businessOnly ? " (business write only)" : "");
    }
}
