package dev.relaycheck.model.store;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.RelayLogic;

import java.util.List;
import java.util.Map;

/**
 * The shipped thread-safe store a logic runs on. {@link ConcurrentRelayStore#claim} is always atomic per row, so
 * a logic whose {@link RelayLogic#claimShape()} is {@code CHECK_THEN_ACT} would run as if it were correct on it;
 * that shape is expressed by {@link CheckThenActClaimStore}, which reads first and writes later. Every other
 * store decision (claimable, token, expiry, fencing, dedup key, consumer shape, whether the consumer looks at its
 * marker) is honoured by the store itself.
 */
public final class RelayStores {
    private RelayStores() {
    }

    public static ConcurrentRelayStore shipped(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks) {
        if (logic.claimShape() == RelayLogic.ClaimShape.CHECK_THEN_ACT) {
            return new CheckThenActClaimStore(logic, events, stock, leaseTicks);
        }
        return new ConcurrentRelayStore(logic, events, stock, leaseTicks);
    }
}
