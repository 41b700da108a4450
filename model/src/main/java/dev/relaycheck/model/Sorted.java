package dev.relaycheck.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Immutable sorted copies. State collections are sorted so that iteration order, and therefore every
 * schedule, trace and report built from them, never depends on hashing.
 */
public final class Sorted {
    private Sorted() {
    }

    public static <V> SortedMap<String, V> copy(Map<String, V> map) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(map));
    }

    public static <V> SortedMap<String, V> with(SortedMap<String, V> map, String key, V value) {
        TreeMap<String, V> copy = new TreeMap<>(map);
        copy.put(key, value);
        return Collections.unmodifiableSortedMap(copy);
    }

    public static <T> List<T> append(List<T> list, T value) {
        List<T> copy = new ArrayList<>(list.size() + 1);
        copy.addAll(list);
        copy.add(value);
        return List.copyOf(copy);
    }

    public static <T> List<T> replace(List<T> list, int index, T value) {
        List<T> copy = new ArrayList<>(list);
        copy.set(index, value);
        return List.copyOf(copy);
    }
}
