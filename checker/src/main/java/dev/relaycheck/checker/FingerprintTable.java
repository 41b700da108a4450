package dev.relaycheck.checker;

import java.util.Arrays;

/**
 * The visited set of the exhaustive search: a primitive open-addressing table of 64-bit fingerprints, plus each state's parent id and the index of the step that reached it, so a counterexample can
 * be rebuilt by replaying choices from the initial state. About 21 bytes a state (16 for the half-full table, 5 for parent and choice);
 * no boxed objects.
 */
final class FingerprintTable {
    private static final long EMPTY = 0;
    private long[] keys;
    private int[] parents = new int[1024];
    private byte[] choices = new byte[1024];
    private int size;
    private final int maxStates;

    FingerprintTable(int maxStates) {
        this.maxStates = maxStates;
        int capacity = 1024;
        keys = new long[capacity];
    }

    int size() {
        return size;
    }

    boolean full() {
        return size >= maxStates;
    }

    /** Whether a fingerprint is stored. Safe from many threads while nobody adds. */
    boolean contains(long fingerprint) {
        long key = fingerprint == EMPTY ? 1 : fingerprint;
        long[] k = keys;
        int mask = k.length - 1;
        int i = (int) (key ^ (key >>> 32)) & mask;
        while (k[i] != EMPTY) {
            if (k[i] == key) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    /**
     * Loads the home slot of a fingerprint ahead of its probe. The table is far bigger than the caches, so
     * nearly every probe misses; loads issued together, with no branch between them, let the processor wait
     * for their misses at once instead of one after another. Returns what it loaded, for the caller to keep.
     */
    long touch(long fingerprint) {
        long key = fingerprint == EMPTY ? 1 : fingerprint;
        long[] k = keys;
        return k[(int) (key ^ (key >>> 32)) & (k.length - 1)];
    }

    /** Adds a state; returns its new id, or -1 if it was already there. */
    int addIfAbsent(long fingerprint, int parent, int choice) {
        long key = fingerprint == EMPTY ? 1 : fingerprint; // 0 marks an empty slot
        if ((size + 1) * 2L > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = (int) (key ^ (key >>> 32)) & mask;
        while (keys[i] != EMPTY) {
            if (keys[i] == key) {
                return -1;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        int id = size++;
        if (id >= parents.length) {
            parents = Arrays.copyOf(parents, parents.length * 2);
            choices = Arrays.copyOf(choices, choices.length * 2);
        }
        parents[id] = parent;
        choices[id] = (byte) choice;
        return id;
    }

    int parent(int id) {
        return parents[id];
    }

    int choice(int id) {
        return choices[id] & 0xFF;
    }

    /** Bytes held per stored state, for the benchmark figures. */
    long bytes() {
        return keys.length * 8L + parents.length * 4L + choices.length;
    }

    private void grow() {
        long[] oldKeys = keys;
        keys = new long[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            long key = oldKeys[j];
            if (key != EMPTY) {
                int i = (int) (key ^ (key >>> 32)) & mask;
                while (keys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = key;
            }
        }
    }
}
