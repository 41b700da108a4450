package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.store.RelayStore;
import dev.relaycheck.model.store.SequentialRelayStore;

import java.util.List;
import java.util.Optional;

/**
 * The sequential specification: the pure model with the CORRECT logic behind the same operations as
 * {@link RelayStoreOperations}, performed by the same pollers ({@link PollerOperations}). Always the correct logic,
 * whatever the target: a broken store checked against its own broken model would pass.
 */
public class RelayStoreSpecification {
    private final PollerOperations pollers = new PollerOperations(new Model(new SequentialRelayStore(LogicCatalogue.correct(),
            StoreDomain.EVENTS, StoreDomain.STOCK, StoreDomain.LEASE_TICKS)));

    public Claimed claim(int poller) {
        return pollers.claim(poller);
    }

    public Answer deliver(int poller, EventId event) {
        return pollers.deliver(poller, event);
    }

    public Answer ack(int poller, EventId event) {
        return pollers.ack(poller, event);
    }

    public Answer release(int poller, EventId event) {
        return pollers.release(poller, event);
    }

    public int tick() {
        return pollers.tick();
    }

    public int stock() {
        return pollers.stock();
    }

    /** The model as a store, so the pollers perform the same operations on it. */
    private record Model(SequentialRelayStore model) implements RelayStore {
        @Override
        public List<Held> claim(String poller, int batch) {
            return model.claim(poller, batch);
        }

        @Override
        public Delivery consume(String eventId, long token) {
            return model.consume(eventId, token);
        }

        @Override
        public boolean ack(String eventId, long token) {
            return model.ack(eventId, token);
        }

        @Override
        public boolean release(String eventId, long token) {
            return model.release(eventId, token);
        }

        @Override
        public int tick() {
            return model.tick();
        }

        @Override
        public Optional<RelayState> snapshot() {
            return Optional.of(model.state());
        }
    }
}
