package dev.relaycheck.checker.space;

/**
 * A set of 64-bit fingerprints: primitive open addressing with linear probing, at most 70% full, so a
 * state costs 11 to 23 bytes and no object. One thread adds to a set at a time.
 */
public final class FingerprintSet {
    private static final long EMPTY = 0; // marks a free slot; fingerprint 0 is stored as 1
    private static final int BATCH = 32; // soak's visited set ran about 5% faster at 32 than at 64 (5 runs each)

    private long[] keys = new long[1024];
    private int size;
    @SuppressWarnings("unused")
    private long touched; // keeps the loads that touch slots ahead of their probes from being optimised away

    public int size() {
        return size;
    }

    public long bytes() {
        return keys.length * 8L;
    }

    public boolean contains(long fingerprint) {
        long key = key(fingerprint);
        long[] k = keys;
        int mask = k.length - 1;
        for (int i = home(key, mask); k[i] != EMPTY; i = (i + 1) & mask) {
            if (k[i] == key) {
                return true;
            }
        }
        return false;
    }

    /** Adds a fingerprint; true if it was not there. */
    public boolean add(long fingerprint) {
        long key = key(fingerprint);
        if ((size + 1) * 10L > keys.length * 7L) {
            grow();
        }
        int mask = keys.length - 1;
        int i = home(key, mask);
        for (; keys[i] != EMPTY; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return false;
            }
        }
        keys[i] = key;
        size++;
        return true;
    }

    /**
     * Adds {@code fps[at[k]]} for k from 0 to {@code count}, in that order, writing to {@code fresh} each
     * {@code at[k]} whose fingerprint was new, in that order too; returns how many were. The set is far bigger
     * than the caches, so nearly every probe misses: it goes a batch at a time, first loading each fingerprint's
     * home slot (independent loads, with no branch between them, let the processor wait for their misses at
     * once instead of one after another), then probing. (A small cache of the fingerprints seen lately used
     * to answer a third of the lookups before the table, but soak ran its visited set 8% faster without it.)
     */
    public int addAll(long[] fps, int[] at, int count, int[] fresh) {
        int added = 0;
        for (int from = 0; from < count; from += BATCH) {
            int to = Math.min(count, from + BATCH);
            long[] k = keys;
            int mask = k.length - 1;
            long loaded = 0;
            for (int j = from; j < to; j++) {
                loaded += k[home(key(fps[at[j]]), mask)];
            }
            touched = loaded;
            for (int j = from; j < to; j++) {
                if (add(fps[at[j]])) {
                    fresh[added++] = at[j];
                }
            }
        }
        return added;
    }

    /** What a fingerprint is stored as: itself, except 0, which marks a free slot and is stored as 1. */
    private static long key(long fingerprint) {
        return fingerprint == EMPTY ? 1 : fingerprint;
    }

    private static int home(long key, int mask) {
        return (int) (key ^ (key >>> 32)) & mask;
    }

    private void grow() {
        long[] old = keys;
        keys = new long[old.length * 2];
        int mask = keys.length - 1;
        for (long key : old) {
            if (key != EMPTY) {
                int i = home(key, mask);
                while (keys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = key;
            }
        }
    }
}
