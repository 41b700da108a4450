package dev.relaycheck.model;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the consumer's database holds.
 *
 * @param markers      applied_event markers: dedup key to the id of the event that wrote it (the key is the
 *                     event id for a correct consumer; broken ones key by payload or by a per-retry id)
 * @param stock        stock_balance per SKU
 * @param effects      how many times each event's effect was applied (the ground truth the invariants use;
 *                     a real database would not store this, the model does so it can judge)
 * @param appliedOrder per aggregate, the sequence numbers of the effects in the order they were applied
 * @param markerWrittenAt per marker key, the tick its marker was written; kept only where a retention policy
 *                     can purge markers or the scenario asks to see late redeliveries (see
 *                     {@link RelayModel#datesMarkers()}), so every other search keeps its state space
 * @param purged       ids of events whose marker a retention policy purged: "purged by policy", which
 *                     MARKER_IFF_EFFECT tells apart from "never written"
 */
public record ConsumerState(SortedMap<String, String> markers,
                            SortedMap<String, Integer> stock,
                            SortedMap<String, Integer> effects,
                            SortedMap<String, List<Integer>> appliedOrder,
                            SortedMap<String, Integer> markerWrittenAt,
                            SortedSet<String> purged) {

    public ConsumerState {
        markers = Sorted.copy(markers);
        stock = Sorted.copy(stock);
        effects = Sorted.copy(effects);
        appliedOrder = Sorted.copy(appliedOrder);
        markerWrittenAt = Sorted.copy(markerWrittenAt);
        purged = Sorted.copySet(purged);
    }

    /** A consumer whose markers carry no write time and none of which was purged (every shipped search but retention's). */
    public ConsumerState(SortedMap<String, String> markers, SortedMap<String, Integer> stock,
                         SortedMap<String, Integer> effects, SortedMap<String, List<Integer>> appliedOrder) {
        this(markers, stock, effects, appliedOrder, UNDATED, NONE_PURGED);
    }

    private static final SortedMap<String, Integer> UNDATED = Sorted.copy(new TreeMap<>());
    private static final SortedSet<String> NONE_PURGED = Sorted.copySet(new TreeSet<>());

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
        return new ConsumerState(Sorted.with(markers, key, eventId), stock, effects, appliedOrder, markerWrittenAt, purged);
    }

    /** The marker, stamped with the tick it was written at (for a retention policy to purge it by). */
    ConsumerState withDatedMarker(String key, String eventId, int now) {
        return new ConsumerState(Sorted.with(markers, key, eventId), stock, effects, appliedOrder,
                Sorted.with(markerWrittenAt, key, now), purged);
    }

    /** The tick marker {@code key} was written at, or -1 when it carries none. */
    public int writtenAt(String key) {
        return markerWrittenAt.getOrDefault(key, -1);
    }

    /** True when a retention policy purged a marker of {@code eventId}. */
    public boolean wasPurged(String eventId) {
        return purged.contains(eventId);
    }

    /** The consumer's cleanup job deleted marker {@code key}: the dedup record is gone, the effect stays. */
    ConsumerState withoutMarker(String key) {
        TreeMap<String, String> m = new TreeMap<>(markers);
        String eventId = m.remove(key);
        TreeMap<String, Integer> at = new TreeMap<>(markerWrittenAt);
        at.remove(key);
        TreeSet<String> p = new TreeSet<>(purged);
        p.add(eventId);
        return new ConsumerState(m, stock, effects, appliedOrder, at, p);
    }

    ConsumerState withEffect(Event e) {
        return new ConsumerState(markers,
                Sorted.with(stock, e.aggregate(), stock.getOrDefault(e.aggregate(), 0) - e.quantity()),
                Sorted.with(effects, e.id(), effectCount(e.id()) + 1),
                Sorted.with(appliedOrder, e.aggregate(),
                        Sorted.append(appliedOrder.getOrDefault(e.aggregate(), List.of()), e.seq())),
                markerWrittenAt, purged);
    }
}
