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

    private static final Class<?> FROZEN_MAP = Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();
    private static final Class<?> FROZEN_SET = Collections.unmodifiableSortedSet(new java.util.TreeSet<>()).getClass();

    /**
     * An immutable sorted copy. A map this class already froze is returned as it is (states are copied on
     * every step, so copying again would dominate the search's time); do not pass an unmodifiable view of
     * a map you still change.
     */
    @SuppressWarnings("unchecked")
    public static <V> SortedMap<String, V> copy(Map<String, V> map) {
        if (map.getClass() == FROZEN_MAP && ((SortedMap<String, V>) map).comparator() == null) {
            return (SortedMap<String, V>) map;
        }
        return Collections.unmodifiableSortedMap(new TreeMap<>(map));
    }

    /** An immutable sorted copy of a set; a set this class already froze is returned as it is. */
    public static java.util.SortedSet<String> copySet(java.util.Set<String> set) {
        if (set.getClass() == FROZEN_SET && ((java.util.SortedSet<String>) set).comparator() == null) {
            return (java.util.SortedSet<String>) set;
        }
        return Collections.unmodifiableSortedSet(new java.util.TreeSet<>(set));
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
