package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.CanonicalTokens;
import dev.relaycheck.model.PollerState.Phase;
import dev.relaycheck.model.Scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each field of a packed state lives. The transitions work on an {@code int[]} scratch, one slot a
 * field; the frontier stores the scratch as a few {@code long} words, each slot a bit field just wide enough
 * for its range in this scenario. Unused slots hold 0, so equal states have equal scratches and equal words.
 *
 * <p>Rows are indexed by event (the scenario lists events in sequence order, so index order is outbox
 * order). A poller's batch is held head first.
 */
final class PackedLayout {
    // Global slots.
    static final int CLOCK = 0;
    static final int LAST_TOKEN = 1;
    static final int PRODUCED = 2; // the producer's next event index (begun, with overlapping producers)
    static final int CRASHES = 3;
    static final int LOST_ACKS = 4;
    static final int DELIVER_FAILS = 5;
    static final int PRODUCE_FAILS = 6;
    static final int RENEWALS = 7; // lease renewals spent
    static final int SKEWS = 8; // pollers whose clock skew the search has chosen
    static final int CURSOR = 9; // a cursor relay's cursor: the index + 1 of the highest event it claimed, or 0
    static final int GLOBALS = 10;

    // Slots of a row, from row(e).
    static final int STATUS = 0; // ABSENT, PENDING or DELIVERED
    static final int OWNER = 1; // 0: no lease; else the owner's instance code (PackedModel.ownerCode)
    static final int TOKEN = 2; // the lease's fencing token (0 without a lease)
    static final int EXPIRY = 3; // the lease's expiry instant, NEVER, or 0 without a lease
    static final int EFFECTS = 4; // times the event's effect was applied
    static final int MARKER_TOKEN = 5; // the token in the marker's key, for a consumer keying markers per delivery
    static final int VERSION = 6; // the row's own version, for a relay fencing by per-row versions
    static final int MARKER_AT = 7; // the tick the marker was written + 1, for dated markers; 0: undated or none
    static final int PURGED = 8; // 1 once a retention policy purged the event's marker
    static final int IN_FLIGHT = 9; // 1 while an overlapping producer's transaction is open (the row not visible)
    static final int DELETED = 10; // what the outbox cleanup deleted: 0 nothing, DELETED_DELIVERED, DELETED_PENDING
    static final int LEASE_CLOCK = 11; // the clock the lease's expiry is on, its offset from the database's + maxSkew; 0 without a lease
    private static final int ROW_SLOTS = 12;

    // Slots of a poller, from poller(p); then the batch (event index, token) pairs, then the read set.
    static final int PHASE = 0; // a PollerState.Phase ordinal
    static final int HELD = 1; // rows in the batch
    static final int READS = 2; // rows in the read set of a check-then-act claim
    private static final int POLLER_HEADER = 3;

    static final int ABSENT = 0;
    static final int PENDING = 1;
    static final int DELIVERED = 2;
    static final int NEVER = Integer.MAX_VALUE;
    /** A deleted row was DELIVERED; or PENDING, its lease (owner and expiry, not its token) kept as it was. */
    static final int DELETED_DELIVERED = 1;
    static final int DELETED_PENDING = 2;

    /** What the layout holds beside the scenario's own bounds: what the logic's shapes and the search need. */
    record Spec(int maxTicks, boolean checkThenAct, boolean markerTokens, int longestLease, boolean perRowVersion,
                boolean datesMarkers, boolean purges, boolean keepsCursor, int tokens) {
        /** The same, sized for tokens renumbered canonically: each is its rank among the tokens a state holds. */
        Spec renumbered(Scenario scenario) {
            int holders = 1 + scenario.events().size() * (1 + (perRowVersion ? 1 : 0) + (markerTokens ? 1 : 0))
                    + scenario.pollers().size() * scenario.batch();
            return new Spec(maxTicks, checkThenAct, markerTokens, longestLease, perRowVersion, datesMarkers, purges, keepsCursor,
                    (1 << (32 - Integer.numberOfLeadingZeros(holders))) - 1);
        }
    }

    /** The clock bound, as the readable model resolves the scenario's tick bound for this logic. */
    final int maxTicks;
    /** The greatest token a packed state holds. */
    final int tokens;
    final int events;
    final int pollers;
    final int batch;
    final int size;
    final int words;
    final int maxSkew;
    /** Most steps one state enables (see {@link PackedModel#enabled}). */
    final int maxSteps;
    private final int pollerSlots;
    private final int skewBase; // each poller's clock skew + maxSkew, kept apart from its slots (a crash keeps it)

    /**
     * Per slot, where its bit field lies, in one long so a write loads one entry: the shift in bits 0-5,
     * the word in bits 8-15, the width in bits 16-21 (0 for a slot that is always 0), whether NEVER may be
     * stored (as the limit itself) in bit 24, whether it holds a token in bit 25, and the limit its values stay
     * below in the high 32 bits.
     */
    private final long[] field;
    /**
     * The slots with a field, and each field's word, shift and mask, as flat arrays: unpacking takes each
     * field on its own, not by shifting a word along, so the fields do not wait on one another (a fifth
     * faster, 42 ns a soak state against 52, in a microbenchmark).
     */
    private final int[] fieldSlot;
    private final int[] fieldWord;
    private final int[] fieldShift;
    private final long[] fieldMask;
    private final int[] unfielded; // the slots without a field: always 0
    private final int[] neverable; // the slots that may hold NEVER ...
    private final int[] neverCode; // ... and the code that stands for it

    PackedLayout(Scenario scenario, PackedLogic logic) {
        this(scenario, spec(scenario, logic));
    }

    /** What the layout of a shipped logic's re-implementation holds. */
    static Spec spec(Scenario scenario, PackedLogic logic) {
        return new Spec(scenario.maxTicks(logic.prototype()), logic == PackedLogic.CHECK_THEN_ACT_CLAIM,
                logic == PackedLogic.NEW_ID_ON_RETRY, scenario.leaseTicks(), false, false, false, false,
                CanonicalTokens.exactBound(scenario, scenario.maxTicks(logic.prototype())));
    }

    /** The clock the expiry of row {@code r}'s lease is on, as its offset from the database's (0 without a lease). */
    int leaseClock(int[] s, int r) {
        return s[r + OWNER] == 0 ? 0 : s[r + LEASE_CLOCK] - maxSkew;
    }

    /**
     * {@code spec.maxTicks}: the readable model's clock bound ({@code RelayModel.maxTicks}); {@code markerTokens}:
     * whether a marker's key depends on the token it was delivered with, so each row keeps that token;
     * {@code longestLease}: the lease a claim is expected to grant (a longer one overflows its field);
     * {@code tokens}: the greatest token a state may hold.
     */
    PackedLayout(Scenario scenario, Spec spec) {
        this.maxTicks = spec.maxTicks();
        events = scenario.events().size();
        pollers = scenario.pollers().size();
        batch = scenario.batch();
        maxSkew = scenario.maxSkew();
        pollerSlots = POLLER_HEADER + 3 * batch;
        skewBase = GLOBALS + events * ROW_SLOTS + pollers * pollerSlots;
        size = skewBase + pollers;
        maxSteps = (scenario.producersOverlap() ? 1 + events : 2) + 5 * pollers + 1 + events + 1 + 2 * maxSkew + 1;
        // tokens a search can reach with leases that last; a value past it stops the packed search (the readable
        // model takes over, and renumbers tokens if its exact space outgrows the same bound)
        tokens = spec.tokens();
        boolean perRow = spec.perRowVersion();
        int[] max = new int[size];
        boolean[] neverable = new boolean[size];
        boolean[] token = new boolean[size]; // the slots that hold tokens: a value past one is a token overflow
        token[LAST_TOKEN] = true;
        max[CLOCK] = maxTicks;
        max[LAST_TOKEN] = perRow ? 0 : tokens; // per-row versions leave the global counter unused
        max[PRODUCED] = events;
        max[CRASHES] = scenario.maxCrashes();
        max[LOST_ACKS] = scenario.maxLostAcks();
        max[DELIVER_FAILS] = scenario.maxDeliverFails();
        max[PRODUCE_FAILS] = scenario.maxProduceFails();
        max[RENEWALS] = scenario.maxRenewals();
        max[SKEWS] = maxSkew > 0 ? pollers : 0;
        max[CURSOR] = spec.keepsCursor() ? events : 0;
        for (int e = 0; e < events; e++) {
            int r = row(e);
            max[r + STATUS] = DELIVERED;
            max[r + OWNER] = pollers;
            max[r + TOKEN] = tokens;
            token[r + TOKEN] = true;
            token[r + MARKER_TOKEN] = true;
            token[r + VERSION] = true;
            max[r + EXPIRY] = maxTicks + spec.longestLease() + maxSkew + 1;
            neverable[r + EXPIRY] = true;
            max[r + EFFECTS] = 1;
            max[r + MARKER_TOKEN] = spec.markerTokens() ? tokens : 0;
            max[r + VERSION] = perRow ? tokens : 0;
            max[r + MARKER_AT] = spec.datesMarkers() ? maxTicks + 1 : 0;
            max[r + PURGED] = spec.purges() ? 1 : 0;
            max[r + IN_FLIGHT] = scenario.producersOverlap() ? 1 : 0;
            max[r + DELETED] = scenario.cleanup() ? DELETED_PENDING : 0;
            max[r + LEASE_CLOCK] = 2 * maxSkew;
        }
        for (int p = 0; p < pollers; p++) {
            int b = poller(p);
            max[b + PHASE] = Phase.values().length - 1;
            max[b + HELD] = batch;
            max[b + READS] = spec.checkThenAct() ? batch : 0;
            for (int k = 0; k < batch; k++) {
                max[heldEvent(b, k)] = events - 1;
                max[heldToken(b, k)] = tokens;
                token[heldToken(b, k)] = true;
                max[read(b, k)] = spec.checkThenAct() ? events - 1 : 0;
            }
            max[skew(p)] = 2 * maxSkew;
        }
        field = new long[size];
        List<Integer> fielded = new ArrayList<>();
        List<Integer> never = new ArrayList<>();
        List<Integer> zero = new ArrayList<>();
        int word = 0;
        int shift = 0;
        for (int slot = 0; slot < size; slot++) {
            int bits = 32 - Integer.numberOfLeadingZeros(max[slot]);
            long limit = neverable[slot] ? max[slot] : max[slot] + 1L;
            long tokenBit = token[slot] ? 1L << 25 : 0;
            if (bits == 0) { // a slot that is always 0 needs no bits
                field[slot] = limit << 32 | tokenBit;
                zero.add(slot);
                continue;
            }
            if (shift + bits > 64) {
                word++;
                shift = 0;
            }
            field[slot] = limit << 32 | tokenBit | (neverable[slot] ? 1L << 24 : 0) | (long) bits << 16 | (long) word << 8 | shift;
            fielded.add(slot);
            if (neverable[slot]) {
                never.add(slot);
            }
            shift += bits;
        }
        words = word + 1;
        fieldSlot = fielded.stream().mapToInt(Integer::intValue).toArray();
        fieldWord = fielded.stream().mapToInt(slot -> (int) (field[slot] >>> 8 & 0xFF)).toArray();
        fieldShift = fielded.stream().mapToInt(slot -> (int) field[slot] & 63).toArray();
        fieldMask = fielded.stream().mapToLong(slot -> (1L << (field[slot] >>> 16 & 63)) - 1).toArray();
        unfielded = zero.stream().mapToInt(Integer::intValue).toArray();
        this.neverable = never.stream().mapToInt(Integer::intValue).toArray();
        neverCode = never.stream().mapToInt(slot -> max[slot]).toArray();
    }

    int row(int e) {
        return GLOBALS + e * ROW_SLOTS;
    }

    int poller(int p) {
        return GLOBALS + events * ROW_SLOTS + p * pollerSlots;
    }

    int pollerSlots() {
        return pollerSlots;
    }

    /** Poller {@code p}'s clock skew + maxSkew (0 while not chosen, and without skew). */
    int skew(int p) {
        return skewBase + p;
    }

    int heldEvent(int pollerBase, int k) {
        return pollerBase + POLLER_HEADER + 2 * k;
    }

    int heldToken(int pollerBase, int k) {
        return pollerBase + POLLER_HEADER + 2 * k + 1;
    }

    int read(int pollerBase, int k) {
        return pollerBase + POLLER_HEADER + 2 * batch + k;
    }

    /** Packs a scratch into words; throws Overflow when a value is past its field. */
    long[] encode(int[] s) {
        long[] out = new long[words];
        for (int slot = 0; slot < size; slot++) {
            long d = field[slot];
            out[(int) (d >>> 8 & 0xFF)] |= code(slot, d, s[slot]) << (int) d;
        }
        return out;
    }

    /**
     * Writes {@code value} into slot {@code slot}'s field of the state packed in {@code out} at {@code at},
     * leaving every other field as it was; throws Overflow when the value is past the field. A step writes a
     * handful of a state's dozens of slots, so its successor is its state's words with those rewritten.
     */
    void pack(int slot, int value, long[] out, int at) {
        long d = field[slot];
        int shift = (int) d & 63;
        long mask = ((1L << (d >>> 16 & 63)) - 1) << shift;
        int w = at + (int) (d >>> 8 & 0xFF);
        out[w] = (out[w] & ~mask) | code(slot, d, value) << shift;
    }

    /** Bits of slot {@code slot}'s field (0 for a slot that is always 0). */
    int width(int slot) {
        return (int) (field[slot] >>> 16 & 63);
    }

    /** A slot's value as its field holds it; throws Overflow when the value is past the field. */
    long code(int slot, int value) {
        return code(slot, field[slot], value);
    }

    /** A slot's value as its field holds it. */
    private static long code(int slot, long d, int v) {
        if (Integer.compareUnsigned(v, (int) (d >>> 32)) < 0) { // within [0, limit)
            return v;
        }
        if (v == NEVER && (d & 1L << 24) != 0) {
            return d >>> 32;
        }
        throw new Overflow("slot " + slot + " holds " + v + ", past its field's " + ((d >>> 32) - 1),
                (d & 1L << 25) != 0);
    }

    /** Unpacks the words at {@code at} into a scratch (every slot written). */
    void decode(long[] in, int at, int[] s) {
        for (int slot : unfielded) { // filling the whole scratch first cost a sixth as much as unpacking (soak profile)
            s[slot] = 0;
        }
        for (int f = 0; f < fieldSlot.length; f++) {
            s[fieldSlot[f]] = (int) (in[at + fieldWord[f]] >>> fieldShift[f] & fieldMask[f]);
        }
        for (int k = 0; k < neverable.length; k++) {
            if (s[neverable[k]] == neverCode[k]) {
                s[neverable[k]] = NEVER;
            }
        }
    }
}
