package dev.relaycheck.checker.space;

import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.Witness;

import java.util.Arrays;

/**
 * What a worker found expanding a run of states: per state, where its successors end and whether its
 * healing run was made and failed; per successor, its fingerprint, what it broke, which witnesses its step
 * showed, and the state itself (held as the space holds states: an object, or a stride of packed words);
 * once the visited set has taken them, which successors were new. It also tallies as it goes what the search
 * counts (transitions, witnesses, healing runs), so that numbering a run the search does not stop in need
 * visit only the new successors. Flat primitive arrays, reused chunk after chunk, because the packed space
 * fills millions a second. A successor that breaks an invariant also carries which ones, where the search goes on
 * past violations (and so never stores it).
 */
public final class Successors {
    /** The step broke nothing. */
    public static final byte NONE = 0;
    /** The step broke a transition invariant; the state it led to may be one already stored. */
    public static final byte BREAKS_TRANSITION = 1;
    /** The state it led to breaks a state invariant, so it is new: every stored state passed them. */
    public static final byte BREAKS_STATE = 2;
    /**
     * Added to what a successor broke when the space knows the state it led to is stored, or is looked up
     * before it in frontier order: the visited set never takes it, but it counts as a transition.
     */
    public static final byte KNOWN_STORED = 4;
    /** The bits of a successor's entry that say what it broke, below {@link #KNOWN_STORED}. */
    private static final int WHAT_BROKE = BREAKS_TRANSITION | BREAKS_STATE;

    private final int stride;
    private Object[] objects;
    private long[] words;
    private long[] fingerprints = new long[64];
    private byte[] broken = new byte[64];
    private int[] witnesses = new int[64]; // a bit per witness: more than a byte's eight
    private long[] routes; // per successor, what the packed space keeps with it (how it was reached)
    private int[] invariants = new int[64]; // per successor, the invariants it broke, a bit per ordinal (where known)
    private int[] breaking = new int[16]; // the successors that broke an invariant, in order
    private int breakingCount;
    private final int notLookedUp; // the bits of an entry that keep a successor from the visited set
    private int size;

    // per shard of the visited set: the successors whose fingerprints fall in it, in order, and those of
    // them that were new, in order; the thread adding a shard makes and writes only that shard's lists
    private final int[][] byShard;
    private final int[][] freshByShard;
    private final int[] freshInShard;
    private final int[] freshRead; // per shard, how far nextFresh has read its new successors

    private int[] ends = new int[16];
    private boolean[] healed = new boolean[16];
    private byte[] healing = new byte[16]; // per state, what its healing run did (HealingOutcome.HEALS ...), if one ran
    private int states;

    // the tallies, kept as successors and states are added
    private final long[] witnessCounts = new long[Integer.SIZE]; // per witness bit
    private int firstBreak; // the first successor that broke an invariant, or -1
    private int healedThroughFailure; // healing runs up to and including the first that failed
    private int firstHealingFailure; // the first state whose healing run failed, or -1
    private int healedCount; // healing runs, all
    private int firstNeverCompletes; // the first state whose healing run did not complete, or -1
    private int firstBreaksWhileHealing; // the first state whose healing run broke a safety invariant, or -1

    /**
     * {@code stride}: packed words a successor takes, or 0 for a space that holds states as objects;
     * {@code shards}: shards of the visited set.
     */
    public Successors(int stride, int shards) {
        this(stride, shards, false);
    }

    /**
     * ... {@code storesNoBreak}: a successor that broke a transition invariant is not stored either (a search that
     * goes on past violations expands only states reached by steps that broke nothing).
     */
    public Successors(int stride, int shards, boolean storesNoBreak) {
        this.stride = stride;
        this.notLookedUp = BREAKS_STATE | KNOWN_STORED | (storesNoBreak ? BREAKS_TRANSITION : 0);
        if (stride == 0) {
            objects = new Object[64];
        } else {
            words = new long[64 * stride];
            routes = new long[64];
        }
        byShard = new int[shards][64];
        freshByShard = new int[shards][64];
        freshInShard = new int[shards];
        freshRead = new int[shards];
    }

    /** Empties it for the next chunk, keeping its arrays. */
    public void clear() {
        if (objects != null) {
            Arrays.fill(objects, 0, size, null);
        }
        size = 0;
        states = 0;
        breakingCount = 0;
        Arrays.fill(witnessCounts, 0);
        firstBreak = -1;
        healedThroughFailure = 0;
        firstHealingFailure = -1;
        healedCount = 0;
        firstNeverCompletes = -1;
        firstBreaksWhileHealing = -1;
    }

    /** Adds a successor held as an object. */
    public void add(Object state, long fingerprint, byte breaks, int witnessMask) {
        add(state, fingerprint, breaks, witnessMask, 0);
    }

    /** ... that broke {@code invariants}, a bit per ordinal. */
    public void add(Object state, long fingerprint, byte breaks, int witnessMask, int invariants) {
        ensure();
        objects[size] = state;
        addRest(fingerprint, breaks, witnessMask, invariants);
    }

    /** The words the next successor is to be packed into, from {@link #nextWordsOffset()}; then call {@link #addPacked}. */
    public long[] nextWords() {
        ensure();
        return words;
    }

    public int nextWordsOffset() {
        return size * stride;
    }

    /**
     * Adds the successor just packed into {@link #nextWords()}, with {@code route}, which the space keeps
     * with it if it is new.
     */
    public void addPacked(long fingerprint, byte breaks, int witnessMask, long route) {
        addPacked(fingerprint, breaks, witnessMask, route, 0);
    }

    /** ... that broke {@code invariants}, a bit per ordinal (0 where the space did not say). */
    public void addPacked(long fingerprint, byte breaks, int witnessMask, long route, int invariants) {
        routes[size] = route;
        addRest(fingerprint, breaks, witnessMask, invariants);
    }

    /**
     * Adds a successor of a packed space that the space knows is stored, by a step that broke nothing: a
     * transition to count, never looked up, so it needs no words and no fingerprint.
     */
    public void addKnownStored(int witnessMask, long route) {
        ensure();
        routes[size] = route;
        addRest(0, KNOWN_STORED, witnessMask, 0);
    }

    private void addRest(long fingerprint, byte breaks, int witnessMask, int brokenInvariants) {
        fingerprints[size] = fingerprint;
        broken[size] = breaks;
        witnesses[size] = witnessMask;
        invariants[size] = brokenInvariants;
        if ((breaks & WHAT_BROKE) != NONE) {
            if (breakingCount == breaking.length) {
                breaking = Arrays.copyOf(breaking, 2 * breakingCount);
            }
            breaking[breakingCount++] = size;
        }
        for (int w = witnessMask, bit = 0; w != 0; w >>>= 1, bit++) {
            witnessCounts[bit] += w & 1;
        }
        if ((breaks & WHAT_BROKE) != NONE && firstBreak < 0) {
            firstBreak = size;
        }
        size++;
    }

    private void ensure() {
        if (size < fingerprints.length) {
            return;
        }
        int n = size * 2;
        fingerprints = Arrays.copyOf(fingerprints, n);
        broken = Arrays.copyOf(broken, n);
        invariants = Arrays.copyOf(invariants, n);
        witnesses = Arrays.copyOf(witnesses, n);
        if (stride == 0) {
            objects = Arrays.copyOf(objects, n);
        } else {
            words = Arrays.copyOf(words, n * stride);
            routes = Arrays.copyOf(routes, n);
        }
    }

    /**
     * Closes the expansion of one state; {@code healing}: what its healing run did, if {@code healedHere}
     * ({@link StateSpace#HEALS} ...).
     */
    public void endState(boolean healedHere, int healing) {
        if (states == ends.length) {
            ends = Arrays.copyOf(ends, states * 2);
            healed = Arrays.copyOf(healed, states * 2);
            this.healing = Arrays.copyOf(this.healing, states * 2);
        }
        ends[states] = size;
        healed[states] = healedHere;
        this.healing[states] = (byte) healing;
        boolean failed = healedHere && healing != HealingOutcome.HEALS;
        if (healedHere && firstHealingFailure < 0) {
            healedThroughFailure++;
            if (failed) {
                firstHealingFailure = states;
            }
        }
        healedCount += healedHere ? 1 : 0;
        if (failed && healing == HealingOutcome.NEVER_COMPLETES && firstNeverCompletes < 0) {
            firstNeverCompletes = states;
        }
        if (failed && healing == HealingOutcome.BREAKS_WHILE_HEALING && firstBreaksWhileHealing < 0) {
            firstBreaksWhileHealing = states;
        }
        states++;
    }

    /**
     * Adds the successors whose fingerprints fall in {@code shard} to it, in order, listing those that were
     * new. Threads may add different shards at once: each writes only its shard's list.
     */
    public void addToShard(VisitedSet visited, int shard) {
        int count = listShard(shard);
        freshInShard[shard] = visited.shard(shard).addAll(fingerprints, byShard[shard], count, freshByShard[shard]);
        freshRead[shard] = 0;
    }

    /**
     * Lists the successors whose fingerprints fall in {@code shard}, in order, but those breaking a state
     * invariant (never stored; nor, where the search goes on past violations, those breaking any) and those known
     * stored; returns how many. Made in one pass when the shard takes
     * them, not a successor at a time as the expansion adds them (fewer passes over the successors). Without a
     * branch, because which shard a fingerprint falls in is a coin toss.
     */
    private int listShard(int shard) {
        if (byShard[shard].length < size) {
            byShard[shard] = new int[fingerprints.length];
            freshByShard[shard] = new int[fingerprints.length];
        }
        int[] list = byShard[shard];
        int shards = byShard.length;
        int count = 0;
        for (int j = 0; j < size; j++) {
            list[count] = j;
            boolean looked = (broken[j] & notLookedUp) == 0;
            count += looked & VisitedSet.shardOf(fingerprints[j], shards) == shard ? 1 : 0;
        }
        return count;
    }

    /**
     * The next successor that was new to the visited set, in order (the shards' lists merged), or -1 after the
     * last; once every shard has taken its own, each call reads one further.
     */
    public int nextFresh() {
        int next = -1;
        int from = -1;
        for (int shard = 0; shard < freshInShard.length; shard++) {
            if (freshRead[shard] < freshInShard[shard]) {
                int j = freshByShard[shard][freshRead[shard]];
                if (next < 0 || j < next) {
                    next = j;
                    from = shard;
                }
            }
        }
        if (from >= 0) {
            freshRead[from]++;
        }
        return next;
    }

    /** How many successors were new, once every shard has taken its own. */
    public int freshCount() {
        int n = 0;
        for (int f : freshInShard) {
            n += f;
        }
        return n;
    }

    /** Successors added, each a transition. */
    public int size() {
        return size;
    }

    /** How many successors showed witness {@code bit}. */
    public long witnessCount(int bit) {
        return witnessCounts[bit];
    }

    /** The first successor that broke an invariant, or -1. */
    public int firstBreak() {
        return firstBreak;
    }

    /** How many successors broke an invariant. */
    public int breakingCount() {
        return breakingCount;
    }

    /** The {@code k}-th successor that broke an invariant, in order. */
    public int breaking(int k) {
        return breaking[k];
    }

    /** The invariants successor {@code j} broke, a bit per ordinal (0 where the space did not say). */
    public int invariants(int j) {
        return invariants[j];
    }

    /** Healing runs made, up to and including the first that failed. */
    public int healedThroughFailure() {
        return healedThroughFailure;
    }

    /** The first state whose healing run failed, or -1. */
    public int firstHealingFailure() {
        return firstHealingFailure;
    }

    /** Healing runs made. */
    public int healedCount() {
        return healedCount;
    }

    /** The first state whose healing run did not complete, or -1. */
    public int firstNeverCompletes() {
        return firstNeverCompletes;
    }

    /** The first state whose healing run broke a safety invariant, or -1. */
    public int firstBreaksWhileHealing() {
        return firstBreaksWhileHealing;
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
        return healing[state] != HealingOutcome.HEALS;
    }

    /** What the healing run of {@code state} did, if one ran ({@link StateSpace#HEALS} ...). */
    public int healing(int state) {
        return healing[state];
    }

    public Object object(int j) {
        return objects[j];
    }

    /** Copies successor {@code j}'s packed words into {@code into} at {@code at}. */
    public void copyWords(int j, long[] into, int at) {
        for (int w = 0, from = j * stride; w < stride; w++) { // a few words: cheaper than arraycopy's call
            into[at + w] = words[from + w];
        }
    }

    /** What successor {@code j} broke: {@link #NONE}, {@link #BREAKS_TRANSITION} or {@link #BREAKS_STATE}. */
    public byte breaks(int j) {
        return (byte) (broken[j] & WHAT_BROKE);
    }

    public long route(int j) {
        return routes[j];
    }

    public int witnesses(int j) {
        return witnesses[j] & 0xFFFF;
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
