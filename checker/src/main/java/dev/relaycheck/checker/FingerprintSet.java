package dev.relaycheck.checker;

/**
 * A set of 64-bit fingerprints: primitive open addressing with linear probing, kept at most half full, so
 * a state costs 8 to 16 bytes and no object. One thread adds to a set at a time.
 */
final class FingerprintSet {
    private static final long EMPTY = 0; // marks a free slot; fingerprint 0 is stored as 1
    private long[] keys = new long[1024];
    private int size;
    @SuppressWarnings("unused")
    private long touched; // what touch loads are kept in, so they are not optimised away

    int size() {
        return size;
    }

    long bytes() {
        return keys.length * 8L;
    }

    boolean contains(long fingerprint) {
        long key = fingerprint == EMPTY ? 1 : fingerprint;
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
    boolean add(long fingerprint) {
        long key = fingerprint == EMPTY ? 1 : fingerprint;
        if ((size + 1) * 2L > keys.length) {
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
     * Loads the home slot of a fingerprint ahead of its probe. The set is far bigger than the caches, so
     * nearly every probe misses; loads issued together, with no branch between them, let the processor wait
     * for their misses at once instead of one after another. Returns what it loaded, for the caller to keep.
     */
    long touch(long fingerprint) {
        long key = fingerprint == EMPTY ? 1 : fingerprint;
        long[] k = keys;
        return k[home(key, k.length - 1)];
    }

    /** Keeps what a batch of {@link #touch} calls loaded. */
    void keep(long loaded) {
        touched = loaded;
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
