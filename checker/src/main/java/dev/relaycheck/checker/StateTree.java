package dev.relaycheck.checker;

import java.util.Arrays;

/**
 * The states the search numbered, in frontier order, each with its parent's number and the index of the
 * step that reached it, so a counterexample is rebuilt by replaying choices from the initial state. Five
 * bytes a state. The merging thread makes room for a chunk's new states; then each worker writes the
 * numbers it was given, so no two threads write one entry.
 */
final class StateTree {
    private int[] parents = new int[1024];
    private byte[] choices = new byte[1024];
    private int size;

    /** Makes room for {@code count} more states; returns the first number they get. */
    int extend(int count) {
        int first = size;
        size += count;
        if (size > parents.length) {
            int grown = Math.max(size, parents.length + (parents.length >> 1)); // by half: most of a state's bytes
            parents = Arrays.copyOf(parents, grown);
            choices = Arrays.copyOf(choices, grown);
        }
        return first;
    }

    /** Records state {@code id}, within the room made: reached from {@code parent} by its step {@code choice}. */
    void put(int id, int parent, int choice) {
        parents[id] = parent;
        choices[id] = (byte) choice;
    }

    /** Forgets the states from {@code size} on: room made for states the search stopped before numbering. */
    void truncate(int size) {
        this.size = size;
    }

    int size() {
        return size;
    }

    int parent(int id) {
        return parents[id];
    }

    int choice(int id) {
        return choices[id] & 0xFF;
    }

    long bytes() {
        return parents.length * 4L + choices.length;
    }
}
