package dev.relaycheck.checker;

import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.Witness;

import java.util.Arrays;

/**
 * What a worker found expanding a run of states: per state, where its successors end and whether its
 * healing run was made and failed; per successor, its fingerprint, whether it was stored already, what it
 * broke, which witnesses its step showed, and the state itself, held as the space holds states (an object,
 * or a stride of packed words). Flat primitive arrays, because the packed space fills millions a second.
 */
public final class Successors {
    /** The step broke nothing. */
    public static final byte NONE = 0;
    /** The step broke a transition invariant; the state it led to may be one already stored. */
    public static final byte BREAKS_TRANSITION = 1;
    /** The state it led to breaks a state invariant, so it is new: every stored state passed them. */
    public static final byte BREAKS_STATE = 2;

    private final int stride;
    private Object[] objects;
    private long[] words;
    private long[] fingerprints = new long[64];
    private boolean[] known = new boolean[64];
    private byte[] broken = new byte[64];
    private byte[] witnesses = new byte[64];
    private int size;

    private int[] ends = new int[16];
    private boolean[] healed = new boolean[16];
    private boolean[] healingFailed = new boolean[16];
    private int states;

    /** {@code stride}: packed words a successor takes, or 0 for a space that holds states as objects. */
    public Successors(int stride) {
        this.stride = stride;
        if (stride == 0) {
            objects = new Object[64];
        } else {
            words = new long[64 * stride];
        }
    }

    /** Adds a successor held as an object. */
    public void add(Object state, long fingerprint, byte breaks, int witnessMask) {
        ensure();
        objects[size] = state;
        addRest(fingerprint, breaks, witnessMask);
    }

    /** The words the next successor is to be packed into, from {@link #nextWordsOffset()}; then call {@link #addPacked}. */
    public long[] nextWords() {
        ensure();
        return words;
    }

    public int nextWordsOffset() {
        return size * stride;
    }

    /** Adds the successor just packed into {@link #nextWords()}. */
    public void addPacked(long fingerprint, byte breaks, int witnessMask) {
        addRest(fingerprint, breaks, witnessMask);
    }

    private void addRest(long fingerprint, byte breaks, int witnessMask) {
        fingerprints[size] = fingerprint;
        broken[size] = breaks;
        witnesses[size] = (byte) witnessMask;
        size++;
    }

    private void ensure() {
        if (size < fingerprints.length) {
            return;
        }
        int n = size * 2;
        fingerprints = Arrays.copyOf(fingerprints, n);
        known = Arrays.copyOf(known, n);
        broken = Arrays.copyOf(broken, n);
        witnesses = Arrays.copyOf(witnesses, n);
        if (stride == 0) {
            objects = Arrays.copyOf(objects, n);
        } else {
            words = Arrays.copyOf(words, n * stride);
        }
    }

    public int size() {
        return size;
    }

    /** Closes the expansion of one state. */
    public void endState(boolean healedHere, boolean healingFailedHere) {
        if (states == ends.length) {
            ends = Arrays.copyOf(ends, states * 2);
            healed = Arrays.copyOf(healed, states * 2);
            healingFailed = Arrays.copyOf(healingFailed, states * 2);
        }
        ends[states] = size;
        healed[states] = healedHere;
        healingFailed[states] = healingFailedHere;
        states++;
    }

    /** Successors added since the last {@link #endState}. */
    public int open() {
        return size - (states == 0 ? 0 : ends[states - 1]);
    }

    public int states() {
        return states;
    }

    public int from(int state) {
        return state == 0 ? 0 : ends[state - 1];
    }

    public int to(int state) {
        return ends[state];
    }

    public boolean healed(int state) {
        return healed[state];
    }

    public boolean healingFailed(int state) {
        return healingFailed[state];
    }

    public Object object(int j) {
        return objects[j];
    }

    /** Copies successor {@code j}'s packed words into {@code into} at {@code at}. */
    public void copyWords(int j, long[] into, int at) {
        System.arraycopy(words, j * stride, into, at, stride);
    }

    public long fingerprint(int j) {
        return fingerprints[j];
    }

    /** Looks up which successors the table holds, a batch at a time (see {@link FingerprintTable#touch}). */
    void markKnown(FingerprintTable table) {
        for (int from = 0; from < size; from += BATCH) {
            int to = Math.min(size, from + BATCH);
            long loaded = 0;
            for (int j = from; j < to; j++) {
                loaded += table.touch(fingerprints[j]);
            }
            sink = loaded;
            for (int j = from; j < to; j++) {
                known[j] = table.contains(fingerprints[j]);
            }
        }
    }

    private static final int BATCH = 32;
    @SuppressWarnings("unused")
    private long sink; // keeps the touching loads from being optimised away

    /** Whether the successor's fingerprint was stored when it was expanded. */
    public boolean known(int j) {
        return known[j];
    }

    public byte breaks(int j) {
        return broken[j];
    }

    public int witnesses(int j) {
        return witnesses[j];
    }

    /** The witnesses an outcome shows, as a bit per {@link Witness} ordinal. */
    public static int witnessMask(Outcome outcome) {
        int mask = 0;
        for (Witness w : Witness.seenIn(outcome)) {
            mask |= 1 << w.ordinal();
        }
        return mask;
    }
}
