package dev.relaycheck.stress.support;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.store.CheckThenActClaimStore;
import dev.relaycheck.model.store.ConcurrentRelayStore;

import java.util.List;
import java.util.Map;

/**
 * Builds the thread-safe store a logic needs. {@link ConcurrentRelayStore#claim} is always atomic per row, so
 * a logic whose {@link RelayLogic#claimShape()} is {@code CHECK_THEN_ACT} would run as if it were correct on
 * it; that shape is expressed by {@link CheckThenActClaimStore}, which reads first and writes later.
 * Every other store decision (claimable, token, expiry, fencing, dedup key, consumer shape, whether the
 * consumer looks at its marker) is honored by the store itself; the poller's order of ack and delivery by
 * {@link RelayRace#process}, the producer's transaction shape by {@link ProducerOutboxStore}.
 */
public final class Stores {
    private Stores() {
    }

    public static ConcurrentRelayStore forLogic(RelayLogic logic, List<Event> events, Map<String, Integer> stock,
                                                int leaseTicks) {
        if (logic.claimShape() == RelayLogic.ClaimShape.CHECK_THEN_ACT) {
            return new CheckThenActClaimStore(logic, events, stock, leaseTicks);
        }
        return new ConcurrentRelayStore(logic, events, stock, leaseTicks);
    }
}
