package dev.relaycheck.checker;

import java.util.Arrays;

/**
 * The states the search numbered, in frontier order, each with its parent's number and the index of the
 * step that reached it, so a counterexample is rebuilt by replaying choices from the initial state. Five
 * bytes a state; owned by the merging thread.
 */
final class StateTree {
    private int[] parents = new int[1024];
    private byte[] choices = new byte[1024];
    private int size;

    /** Numbers a new state; returns its number. */
    int number(int parent, int choice) {
        int id = size++;
        if (id >= parents.length) {
            int grown = parents.length + (parents.length >> 1); // by half: this array is most of a state's bytes
            parents = Arrays.copyOf(parents, grown);
            choices = Arrays.copyOf(choices, grown);
        }
        parents[id] = parent;
        choices[id] = (byte) choice;
        return id;
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
