package dev.relaycheck.model.store;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.RelayLogic;

import java.util.List;
import java.util.Map;

/**
 * Broken: the consumer looks the marker up outside its transaction, then inserts the marker and applies the
 * effect. Two concurrent deliveries of one event both see no marker and both apply.
 */
public class CheckThenInsertDedupStore extends ConcurrentRelayStore {

    public CheckThenInsertDedupStore(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks) {
        super(logic, events, stock, leaseTicks);
    }

    @Override
    public Delivery consume(String eventId, long token) {
        Event e = event(eventId);
        ConsumerStripe stripe = stripe(e.aggregate());
        String key = logic.dedupKey(e, token);
        boolean seen;
        stripe.lock.lock();
        try {
            seen = stripe.markers.containsKey(key); // the check, in its own transaction ...
        } finally {
            stripe.lock.unlock();
        }
        if (seen) {
            return Delivery.DUPLICATE;
        }
        stripe.lock.lock(); // ... then the insert and the effect, without looking again
        try {
            apply(stripe, key, e);
            return Delivery.APPLIED;
        } finally {
            stripe.lock.unlock();
        }
    }
}
