package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import dev.relaycheck.model.store.RelayStore;
import dev.relaycheck.model.store.RelayStore.Delivery;

import java.util.Map;

/**
 * The operations as pollers perform them on a store: a claim of one row, and the delivery, ack and release of a row
 * with the token the poller was granted for it ({@link Grants}). A poller that was never granted the row answers
 * {@link Answer#NOT_HELD} without calling the store: a real poller has no token to present. The Lincheck test
 * classes and the sequential specification all run these, on the store under test and on the model.
 */
final class PollerOperations {
    private final RelayStore store;
    private final Grants grants = new Grants();

    PollerOperations(RelayStore store) {
        this.store = store;
    }

    RelayStore store() {
        return store;
    }

    Claimed claim(int poller) {
        String name = StoreDomain.poller(poller);
        Map<String, Long> before = grants.highestSoFar();
        return grants.granted(name, before, store.claim(name, 1));
    }

    Answer deliver(int poller, EventId event) {
        Long token = grants.held(StoreDomain.poller(poller), event.name());
        if (token == null) {
            return Answer.NOT_HELD;
        }
        return store.consume(event.name(), token) == Delivery.APPLIED ? Answer.APPLIED : Answer.DUPLICATE;
    }

    Answer ack(int poller, EventId event) {
        Long token = grants.held(StoreDomain.poller(poller), event.name());
        return token == null ? Answer.NOT_HELD : store.ack(event.name(), token) ? Answer.ACKED : Answer.STALE;
    }

    Answer release(int poller, EventId event) {
        Long token = grants.held(StoreDomain.poller(poller), event.name());
        return token == null ? Answer.NOT_HELD : store.release(event.name(), token) ? Answer.RELEASED : Answer.STALE;
    }

    int tick() {
        return store.tick();
    }

    int stock() {
        return store.stock(StoreDomain.SKU);
    }
}
