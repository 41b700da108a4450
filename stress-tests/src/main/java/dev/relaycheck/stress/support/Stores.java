package dev.relaycheck.stress.support;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.store.ConcurrentRelayStore;
import dev.relaycheck.model.store.RelayStores;

import java.util.List;
import java.util.Map;

/**
 * Builds the shipped thread-safe store a logic needs ({@link RelayStores#shipped}: the check-then-act claim
 * shape runs on the store that reads first and writes later). The poller's order of ack and delivery is
 * honoured by {@link RelayRace#process}, the producer's transaction shape by {@link ProducerOutboxStore}.
 */
public final class Stores {
    private Stores() {
    }

    public static ConcurrentRelayStore forLogic(RelayLogic logic, List<Event> events, Map<String, Integer> stock,
                                                int leaseTicks) {
        return RelayStores.shipped(logic, events, stock, leaseTicks);
    }
}
