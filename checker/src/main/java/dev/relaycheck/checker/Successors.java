package dev.relaycheck.checker;

import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.Witness;

import java.util.Arrays;

/**
 * The successors of one state, in step order: each one's state, fingerprint, what it broke and which
 * witnesses its step showed. Primitive arrays, because the packed space fills millions of these a second.
 *
 * @param <S> how the space holds one state
 */
public final class Successors<S> {
    /** The step broke nothing. */
    public static final byte NONE = 0;
    /** The step broke a transition invariant; the state it led to may be one already stored. */
    public static final byte BREAKS_TRANSITION = 1;
    /** The state it led to breaks a state invariant, so it is new: every stored state passed them. */
    public static final byte BREAKS_STATE = 2;

    private Object[] states = new Object[8];
    private long[] fingerprints = new long[8];
    private byte[] broken = new byte[8];
    private byte[] witnesses = new byte[8];
    private int size;

    public void add(S state, long fingerprint, byte breaks, int witnessMask) {
        if (size == states.length) {
            states = Arrays.copyOf(states, size * 2);
            fingerprints = Arrays.copyOf(fingerprints, size * 2);
            broken = Arrays.copyOf(broken, size * 2);
            witnesses = Arrays.copyOf(witnesses, size * 2);
        }
        states[size] = state;
        fingerprints[size] = fingerprint;
        broken[size] = breaks;
        witnesses[size] = (byte) witnessMask;
        size++;
    }

    public int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    public S state(int i) {
        return (S) states[i];
    }

    public long fingerprint(int i) {
        return fingerprints[i];
    }

    public byte breaks(int i) {
        return broken[i];
    }

    public int witnesses(int i) {
        return witnesses[i];
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
