package dev.relaycheck.checker.packed;

import java.util.Arrays;

/**
 * A worker's memory of a logic's answers: an open-addressed map from keys of a fixed number of {@code long}s
 * (the arguments of a question, packed as {@link KeyBuilder} builds them) to an {@code int} answer. Looked up
 * only, never iterated, so it shapes no output. Not thread-safe: each worker has its own.
 */
final class Memo {
    /** What {@link #get} answers for a key never put. */
    static final int MISSING = Integer.MIN_VALUE;

    private final int width;
    private long[] keys;
    private int[] values;
    private int size;

    Memo(int width) {
        this.width = width;
        allocate(1 << 10);
    }

    private void allocate(int capacity) {
        keys = new long[capacity * width];
        values = new int[capacity];
        Arrays.fill(values, MISSING);
    }

    /** The answer put for {@code key}, or {@link #MISSING}. */
    int get(long[] key) {
        int mask = values.length - 1;
        for (int i = slot(key, mask); values[i] != MISSING; i = i + 1 & mask) {
            if (equal(i, key)) {
                return values[i];
            }
        }
        return MISSING;
    }

    /** Remembers {@code value} (not {@link #MISSING}) for {@code key}, which it does not hold yet. */
    void put(long[] key, int value) {
        if (2 * (size + 1) > values.length) {
            grow();
        }
        int mask = values.length - 1;
        int i = slot(key, mask);
        while (values[i] != MISSING) {
            i = i + 1 & mask;
        }
        System.arraycopy(key, 0, keys, i * width, width);
        values[i] = value;
        size++;
    }

    /** Bytes its arrays take. */
    long bytes() {
        return 8L * keys.length + 4L * values.length;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        allocate(2 * oldValues.length);
        size = 0;
        long[] key = new long[width];
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != MISSING) {
                System.arraycopy(oldKeys, i * width, key, 0, width);
                put(key, oldValues[i]);
            }
        }
    }

    private int slot(long[] key, int mask) {
        return (int) PackedSpace.fingerprint(key, 0, width) & mask;
    }

    private boolean equal(int i, long[] key) {
        for (int w = 0; w < width; w++) {
            if (keys[i * width + w] != key[w]) {
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
            Arrays.fill(key, 0);
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
