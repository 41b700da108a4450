package dev.relaycheck.checker.search;

import java.util.Arrays;

/**
 * The states the search numbered, in frontier order, each with its parent's number and the index of the
 * step that reached it, so a counterexample is rebuilt by replaying choices from the initial state. Five
 * bytes a state, in blocks of a million states: past the first block, growing adds a block and copies
 * nothing, so a big tree costs no more memory than its states (and fresh memory is slow to come by on a
 * virtual machine). The merging thread makes room for a chunk's new states; then each worker writes the
 * numbers it was given, so no two threads write one entry.
 */
final class StateTree {
    private static final int BLOCK_BITS = 20;
    private static final int BLOCK = 1 << BLOCK_BITS;

    // only the first block is ever shorter than BLOCK: a small tree grows it by doubling
    private int[][] parents = {new int[1024]};
    private byte[][] choices = {new byte[1024]};
    private int size;

    /** Makes room for {@code count} more states; returns the first number they get. */
    int extend(int count) {
        int first = size;
        size += count;
        while ((long) (parents.length - 1) * BLOCK + parents[parents.length - 1].length < size) {
            if (parents[0].length < BLOCK) {
                int length = Math.min(BLOCK, 2 * parents[0].length);
                parents[0] = Arrays.copyOf(parents[0], length);
                choices[0] = Arrays.copyOf(choices[0], length);
            } else {
                parents = Arrays.copyOf(parents, parents.length + 1);
                choices = Arrays.copyOf(choices, choices.length + 1);
                parents[parents.length - 1] = new int[BLOCK];
                choices[choices.length - 1] = new byte[BLOCK];
            }
        }
        return first;
    }

    /** Records state {@code id}, within the room made: reached from {@code parent} by its step {@code choice}. */
    void put(int id, int parent, int choice) {
        parents[id >>> BLOCK_BITS][id & (BLOCK - 1)] = parent;
        choices[id >>> BLOCK_BITS][id & (BLOCK - 1)] = (byte) choice;
    }

    /** Forgets the states from {@code size} on: room made for states the search stopped before numbering. */
    void truncate(int size) {
        this.size = size;
    }

    int size() {
        return size;
    }

    int parent(int id) {
        return parents[id >>> BLOCK_BITS][id & (BLOCK - 1)];
    }

    int choice(int id) {
        return choices[id >>> BLOCK_BITS][id & (BLOCK - 1)] & 0xFF;
    }

    long bytes() {
        return (long) (parents.length - 1) * BLOCK * 5 + parents[parents.length - 1].length * 5L;
    }
}
