package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import dev.relaycheck.lincheck.StoreDomain.Poller;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.store.RelayStore.Delivery;
import dev.relaycheck.model.store.SequentialRelayStore;

import java.util.List;

/**
 * The sequential specification: the pure model with the CORRECT logic behind the same operations as
 * {@link RelayStoreOperations}. Always the correct logic, whatever the target: a broken store checked
 * against its own broken model would pass.
 */
public class RelayStoreSpecification {
    private final SequentialRelayStore model = new SequentialRelayStore(LogicCatalogue.correct(),
            StoreDomain.EVENTS, StoreDomain.STOCK, StoreDomain.LEASE_TICKS);

    public List<Held> claim(Poller poller) {
        return model.claim(poller.name(), 1);
    }

    public Delivery deliver(EventId event, long token) {
        return model.consume(event.name(), token);
    }

    public boolean ack(EventId event, long token) {
        return model.ack(event.name(), token);
    }

    public boolean release(EventId event, long token) {
        return model.release(event.name(), token);
    }

    public int tick() {
        return model.tick();
    }

    public int stock() {
        return model.state().consumer().stock().get(StoreDomain.SKU);
    }
}
