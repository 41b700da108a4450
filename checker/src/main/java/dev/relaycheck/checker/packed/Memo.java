package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.Fingerprint;

import java.util.Arrays;

/**
 * A worker's memory of a logic's answers: an open-addressed map from keys of a fixed number of {@code long}s
 * (the arguments of a question, packed as {@link KeyBuilder} builds them) to an {@code int} answer. Each entry's
 * key words and answer lie side by side in one array, so a probe reads one cache line, not one in the keys and
 * another in the answers: a search looks a claim up in it at every state, most of them misses to main memory.
 * Looked up only, never iterated, so it shapes no output. Not thread-safe: each worker has its own.
 */
final class Memo {
    /** What {@link #get} answers for a key never put. */
    static final int MISSING = Integer.MIN_VALUE;

    private final int width;
    private final int stride; // the key's words, then the answer (MISSING in an empty entry)
    private long[] entries;
    private int capacity;
    private int size;

    Memo(int width) {
        this.width = width;
        this.stride = width + 1;
        allocate(1 << 10);
    }

    private void allocate(int capacity) {
        this.capacity = capacity;
        entries = new long[capacity * stride];
        for (int i = 0; i < capacity; i++) {
            entries[i * stride + width] = MISSING;
        }
    }

    /** The answer put for {@code key}, or {@link #MISSING}. */
    int get(long[] key) {
        int mask = capacity - 1;
        for (int i = slot(key, mask); ; i = i + 1 & mask) {
            int at = i * stride;
            int value = (int) entries[at + width];
            if (value == MISSING || equal(at, key)) {
                return value;
            }
        }
    }

    /** Remembers {@code value} (not {@link #MISSING}) for {@code key}, which it does not hold yet. */
    void put(long[] key, int value) {
        if (2 * (size + 1) > capacity) {
            grow();
        }
        int mask = capacity - 1;
        int i = slot(key, mask);
        while ((int) entries[i * stride + width] != MISSING) {
            i = i + 1 & mask;
        }
        System.arraycopy(key, 0, entries, i * stride, width);
        entries[i * stride + width] = value;
        size++;
    }

    /** Bytes its array takes. */
    long bytes() {
        return 8L * entries.length;
    }

    private void grow() {
        long[] old = entries;
        int oldCapacity = capacity;
        allocate(2 * oldCapacity);
        size = 0;
        long[] key = new long[width];
        for (int i = 0; i < oldCapacity; i++) {
            int value = (int) old[i * stride + width];
            if (value != MISSING) {
                System.arraycopy(old, i * stride, key, 0, width);
                put(key, value);
            }
        }
    }

    private int slot(long[] key, int mask) {
        return (int) Fingerprint.ofWords(key, 0, width) & mask;
    }

    private boolean equal(int at, long[] key) {
        for (int w = 0; w < width; w++) {
            if (entries[at + w] != key[w]) {
                return false;
            }
        }
        return true;
    }

    /** Packs a question's arguments, each in the bits its range needs, into a key of {@code width} longs. */
    static final class KeyBuilder {
        final long[] key;
        private int bit;

        KeyBuilder(int bits) {
            key = new long[Math.max(1, (bits + 63) / 64)];
        }

        int width() {
            return key.length;
        }

        KeyBuilder reset() {
            if (key.length == 1) {
                key[0] = 0;
            } else {
                Arrays.fill(key, 0);
            }
            bit = 0;
            return this;
        }

        /** Appends {@code value}, which fits in {@code bits} bits (at most 32). */
        KeyBuilder add(long value, int bits) {
            if (bits == 0) {
                return this;
            }
            int w = bit >>> 6;
            int shift = bit & 63;
            key[w] |= value << shift;
            if (shift + bits > 64) {
                key[w + 1] |= value >>> 64 - shift;
            }
            bit += bits;
            return this;
        }
    }
}
