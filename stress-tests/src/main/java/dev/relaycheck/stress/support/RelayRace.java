package dev.relaycheck.stress.support;

import dev.relaycheck.model.Held;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.store.RelayStore;
import dev.relaycheck.model.store.RelayStore.Delivery;

import java.util.List;

/**
 * Base of the harness states that race pollers on one {@link RelayStore} (the shipped one, or a user's): the store plus the few
 * poller moves the actors are made of, each reduced to a small int so outcomes read as plain tuples.
 */
public abstract class RelayRace implements Harness {

    /** Outcome code of a consumer delivery that did not happen. */
    public static final int NOT_DELIVERED = 0;
    /** Outcome code of {@link Delivery#APPLIED}. */
    public static final int APPLIED = 1;
    /** Outcome code of {@link Delivery#DUPLICATE}. */
    public static final int DUPLICATE = 2;

    protected final RelayLogic logic;
    protected final RelayStore store;

    /** The logic under test and the store it runs in (see {@link World}). */
    public record Subject(RelayLogic logic, RelayStore store) {
    }

    protected RelayRace(Subject subject) {
        this.logic = subject.logic();
        this.store = subject.store();
    }

    @Override
    public RelayLogic logic() {
        return logic;
    }

    @Override
    public Object store() {
        return store;
    }

    /** Claims with batch 1; the fencing token granted, or 0 when nothing was claimable. */
    protected long claimOne(String poller) {
        List<Held> held = store.claim(poller, 1);
        return held.isEmpty() ? 0 : held.get(0).token();
    }

    /** The consumer transaction as an outcome code. */
    protected int deliver(String eventId, long token) {
        return store.consume(eventId, token) == Delivery.APPLIED ? APPLIED : DUPLICATE;
    }

    /** The fenced ack as 1 (ACKED) or 0 (STALE). */
    protected int ack(String eventId, long token) {
        return store.ack(eventId, token) ? 1 : 0;
    }

    /**
     * What a live poller does with a row it holds: deliver, then ack (or, for a logic that acks before it
     * delivers, the other way round). Returns the delivery's outcome code.
     */
    protected int process(Held held) {
        if (logic.acksBeforeDelivering()) {
            store.ack(held.eventId(), held.token());
            return deliver(held.eventId(), held.token());
        }
        int delivered = deliver(held.eventId(), held.token());
        store.ack(held.eventId(), held.token());
        return delivered;
    }

    /** Sequence number of the event a held row carries. */
    protected int seqOf(Held held) {
        return store.row(held.eventId()).event().seq();
    }
}
