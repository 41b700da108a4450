package dev.relaycheck.model;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What the consumer's database holds.
 *
 * @param markers      applied_event markers: dedup key to the id of the event that wrote it (the key is the
 *                     event id for a correct consumer; broken ones key by payload or by a per-retry id)
 * @param stock        stock_balance per SKU
 * @param effects      how many times each event's effect was applied (the ground truth the invariants use;
 *                     a real database would not store this, the model does so it can judge)
 * @param appliedOrder per aggregate, the sequence numbers of the effects in the order they were applied
 */
public record ConsumerState(SortedMap<String, String> markers,
                            SortedMap<String, Integer> stock,
                            SortedMap<String, Integer> effects,
                            SortedMap<String, List<Integer>> appliedOrder) {

    public ConsumerState {
        markers = Sorted.copy(markers);
        stock = Sorted.copy(stock);
        effects = Sorted.copy(effects);
        appliedOrder = Sorted.copy(appliedOrder);
    }

    public static ConsumerState initial(Map<String, Integer> stock) {
        return new ConsumerState(new java.util.TreeMap<>(), Sorted.copy(stock), new java.util.TreeMap<>(), new java.util.TreeMap<>());
    }

    public int effectCount(String eventId) {
        return effects.getOrDefault(eventId, 0);
    }

    public boolean hasMarkerFor(String eventId) {
        return markers.containsValue(eventId);
    }

    public long markerCountFor(String eventId) {
        return markers.values().stream().filter(eventId::equals).count();
    }

    public boolean hasMarkerKey(String key) {
        return markers.containsKey(key);
    }

    ConsumerState withMarker(String key, String eventId) {
        return new ConsumerState(Sorted.with(markers, key, eventId), stock, effects, appliedOrder);
    }

    ConsumerState withEffect(Event e) {
        return new ConsumerState(markers,
                Sorted.with(stock, e.aggregate(), stock.getOrDefault(e.aggregate(), 0) - e.quantity()),
                Sorted.with(effects, e.id(), effectCount(e.id()) + 1),
                Sorted.with(appliedOrder, e.aggregate(),
                        Sorted.append(appliedOrder.getOrDefault(e.aggregate(), List.of()), e.seq())));
    }
}
