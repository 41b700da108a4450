package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.HealingOutcome;
import dev.relaycheck.checker.space.StateSpace;
import dev.relaycheck.model.SplitMix64;

import java.util.Arrays;

/**
 * A worker's memory of where healing runs went, so EVENTUAL_DELIVERY costs little for states already known to heal.
 * A healing run is round-robin over the fair steps a state enables, the turn counting on: from a state and a turn
 * the rest of the run is fixed, and the turn matters only modulo the least common multiple {@code period} of the
 * numbers of fair steps a state can enable. So the memory is keyed by both (a 64-bit fingerprint of the scratch and
 * the turn's remainder, as the visited set keys states by 64-bit fingerprints), and holds what the run did from
 * there: completed after m steps; broke an invariant at its step after m; or went m steps without completing, all
 * its budget. A later run that reaches a key it holds knows its verdict where that decides it under its own
 * remaining budget (it completes, or breaks the invariant, if that step is within the budget; it never completes if
 * it runs out first), and stops there. Exact for every verdict, so which runs a worker made before, and in which order, changes only how fast it
 * gets there. It forgets everything when full. Not thread-safe: each worker has its own.
 */
final class HealingMemo {
    static final int UNKNOWN = -1;
    /** What a run did from a remembered state: completed, ran into a violation, or ran out of budget. */
    static final int HEALS = 0;
    static final int BREAKS = 1;
    static final int RUNS_ON = 2;
    private static final int CAPACITY = 1 << 18;
    /** A run looks its state up, and is remembered by it, every this many steps: a lookup costs a few steps' time. */
    static final int EVERY = 4;
    /** Periods past this take too many keys a state to pay: such a scenario's runs are not memoised. */
    static final int LONGEST_PERIOD = 1 << 12;

    private final int period;
    private final long[] keys = new long[CAPACITY];
    private final int[] values = new int[CAPACITY]; // kind << 28 | steps, or 0 in an empty entry (kinds are stored + 1)
    private int size;
    private final long[] visitedKeys;
    private final int[] visitedAt;
    private long hits;
    private long runs;

    /** A memory for runs whose turn matters modulo {@code period}, each at most {@code bound} steps. */
    HealingMemo(int period, int bound) {
        this.period = period;
        visitedKeys = new long[bound + 1];
        visitedAt = new int[bound + 1];
    }

    /** The least common multiple of 1 to {@code n}, or 0 when it passes {@link #LONGEST_PERIOD}. */
    static int period(int n) {
        long lcm = 1;
        for (int k = 2; k <= n; k++) {
            lcm = lcm / gcd(lcm, k) * k;
            if (lcm > LONGEST_PERIOD) {
                return 0;
            }
        }
        return (int) lcm;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * A scratch's hash: the sum of each slot's value times the slot's weight, so a write moves it by the change times
     * the weight ({@link PackedModel} keeps it so during a run, at the cost of a multiply a write).
     */
    static long hash(int[] s) {
        long h = 0;
        for (int slot = 0; slot < s.length; slot++) {
            h += (long) s[slot] * slotWeight(slot);
        }
        return h;
    }

    /** Slot {@code slot}'s weight in {@link #hash}: odd, and far from every other slot's. */
    static long slotWeight(int slot) {
        return SplitMix64.mix(slot + 1L) | 1;
    }

    /** The key of a run at a scratch of hash {@code hash}, at turn {@code turn}. */
    long key(long hash, int turn) {
        return SplitMix64.mix(hash + (turn % period) * 0xC2B2AE3D27D4EB4FL) | 1; // never 0, which marks an empty entry
    }

    /**
     * The verdict the memory knows for a run at {@code key} with {@code budget} steps left, as a
     * {@link StateSpace#healingFromLast} kind, or {@link #UNKNOWN}.
     */
    int verdict(long key, int budget) {
        int i = (int) key & CAPACITY - 1;
        while (keys[i] != 0) {
            if (keys[i] == key) {
                int kind = (values[i] >>> 28) - 1;
                int steps = values[i] & (1 << 28) - 1;
                return switch (kind) {
                    // it completes after that many steps: within the budget, or never in it
                    case HEALS -> steps <= budget ? HealingOutcome.HEALS : HealingOutcome.NEVER_COMPLETES;
                    // its next step breaks an invariant: if the budget reaches it
                    case BREAKS -> steps < budget ? HealingOutcome.BREAKS_WHILE_HEALING : HealingOutcome.NEVER_COMPLETES;
                    // it ran that many steps without completing or breaking anything
                    default -> budget <= steps ? HealingOutcome.NEVER_COMPLETES : UNKNOWN;
                };
            }
            i = i + 1 & CAPACITY - 1;
        }
        return UNKNOWN;
    }

    /** The run is at its {@code k}-th memoised state, {@code key}, after {@code taken} steps. */
    void visit(int k, long key, int taken) {
        visitedKeys[k] = key;
        visitedAt[k] = taken;
    }

    void hit() {
        hits++;
    }

    /**
     * The run from the first {@code visited} states it passed ended as {@code kind} after {@code end} steps: each is
     * remembered with what the run did from there on.
     */
    void remember(int visited, int kind, int end) {
        runs++;
        if (size + visited > CAPACITY / 2) {
            Arrays.fill(keys, 0);
            size = 0;
        }
        for (int k = 0; k < visited; k++) {
            int i = (int) visitedKeys[k] & CAPACITY - 1;
            while (keys[i] != 0 && keys[i] != visitedKeys[k]) {
                i = i + 1 & CAPACITY - 1;
            }
            if (keys[i] == 0) {
                size++;
            }
            keys[i] = visitedKeys[k];
            values[i] = kind + 1 << 28 | end - visitedAt[k];
        }
    }

    /** Healing runs this memory decided by what it held, and runs it saw end. */
    long hits() {
        return hits;
    }

    long runs() {
        return runs;
    }
}
