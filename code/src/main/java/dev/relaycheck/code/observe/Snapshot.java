package dev.relaycheck.code.observe;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What was committed at one moment: the outbox as the team's query reads it (in order-key order, then id), and how
 * many times each event's effect has been applied, by outbox id.
 */
public record Snapshot(List<Row> rows, SortedMap<String, Integer> effects) {
    public static final Snapshot EMPTY = new Snapshot(List.of(), new TreeMap<>());

    public Snapshot {
        rows = List.copyOf(rows);
        effects = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(effects));
    }

    public Optional<Row> row(String id) {
        return rows.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    public int effects(String id) {
        return effects.getOrDefault(id, 0);
    }

    public Map<String, Row> byId() {
        Map<String, Row> m = new TreeMap<>();
        rows.forEach(r -> m.put(r.id(), r));
        return m;
    }
}
