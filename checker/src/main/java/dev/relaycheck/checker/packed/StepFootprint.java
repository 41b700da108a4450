package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Scenario;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static dev.relaycheck.checker.packed.PackedLayout.CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.CURSOR;
import static dev.relaycheck.checker.packed.PackedLayout.LAST_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCED;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCE_FAILS;

/**
 * What a step may read and write, coarsely: which units of the state it reads, counting what decides whether
 * it is enabled, and which it writes; and where it stands in the order {@link PackedModel#enabled} lists
 * steps. The units are each global slot, each row's status and lease, each row's effect and marker, and each
 * poller. Two steps of which neither writes what the other reads or writes commute: each is enabled after the
 * other, does the same there, and both orders end in the same state.
 *
 * <p>The search uses it to skip looking up successors it knows are stored (a diamond of two such steps): a
 * state u reached from s by step b, then step a, where a commutes with b and comes before b in s's list.
 * s's successor by a was found no later than u, so it was expanded before u, and its successor by b, which
 * is u's successor by a, was looked up then. Soak's search skips 42% of its lookups this way, and counts
 * each as a transition. Step a also shows in u what it showed in s, as it reads nothing b writes; so the
 * search does not take it in u at all. Each state keeps its {@link Route}: the step that found it, and what
 * the steps listed before that one showed. {@code StepFootprintTest} checks the diamond, and that a shows
 * the same in both, on seeded walks under every logic.
 *
 * <p>A fault's footprint leaves out the counter it raises: only that fault reads it, to stay below the
 * scenario's limit, and two faults of one kind that commute otherwise still commute where the search asks.
 * There a is enabled in u, so the counter was below its limit less one in s, and room was left for both.
 *
 * <p>A footprint is one long: the units read or written in bits 0-27, those written in bits 28-55, the
 * place in the list in bits 56-63. A scenario with more than 28 units gets {@link #UNKNOWN} for every step.
 */
final class StepFootprint {
    /** The footprint of a step not known (the initial state's, or too many units): it commutes with nothing. */
    static final long UNKNOWN = -1L;
    /** What stands for the step that reached the initial state. */
    static final int NO_STEP = -1;

    private static final int UNITS = 28;
    private static final int GLOBALS = PackedLayout.GLOBALS; // the global slots are the first units, as numbered there
    /**
     * The column of a claim's footprint that takes a row under a live lease: such a claim breaks SINGLE_LIVE_LEASE
     * only while another poller still holds the row, so it reads every poller. A claim taking none reads its own.
     */
    static final int TAKES_LIVE_LEASE = 1;

    private final int[] eventSlot; // per step code, the slot holding the event it acts on (any, if none)
    private final int columns; // footprints are listed per step code and per event, or past the last
    private final long[] byStepAndEvent; // the footprint of each step code, per event it acts on
    private final long pollerUnits; // the pollers' units (all bits, with a shift of 0, when footprints are unknown)
    private final int pollerShift;

    StepFootprint(Scenario scenario, PackedLogic logic, PackedLayout at) {
        this(scenario, logic == PackedLogic.DEDUP_BY_PAYLOAD ? SAME_PAYLOAD : OWN_ONLY, false, TAKES_LIVE_LEASES.contains(logic),
                false, false, false, at);
    }

    /**
     * The footprints for a logic whose decisions a table answers: its dedup key may make any marker answer for a
     * delivery (unless each event has a key of its own), an ack or release that is told the clock reads it, and its shapes decide what else a step touches:
     * a delivery that also acks is fenced like an ack, one that dates its marker reads the clock, an ack that marks
     * other rows touches them all (its footprint is not known).
     */
    StepFootprint(Scenario scenario, LogicTable.Shared table, PackedLayout at) {
        this(scenario, table.distinctKeys ? OWN_ONLY : ANY_MARKER, table.ackKnowsContext || table.releaseKnowsContext, true,
                table.shapes.deliversAndAcks(),
                table.datesMarkers, table.shapes.acksTouchOthers(), at);
    }

    /**
     * The shipped logics whose claim may take a row under a live lease; a logic the engine does not know may too.
     */
    private static final Set<PackedLogic> TAKES_LIVE_LEASES = EnumSet.of(PackedLogic.CLAIM_IGNORES_LEASE,
            PackedLogic.CHECK_THEN_ACT_CLAIM);

    /** Which markers a delivery reads, beside its own and those of later events of its aggregate. */
    private static final int OWN_ONLY = 0;
    private static final int SAME_PAYLOAD = 1;
    private static final int ANY_MARKER = 2;

    private StepFootprint(Scenario scenario, int markersRead, boolean fencesReadClock, boolean claimsMayTakeLiveLeases,
                          boolean deliveryAcks, boolean deliveryReadsClock, boolean acksTouchOthers, PackedLayout at) {
        int events = at.events;
        columns = events + 1;
        // the outbox cleanup makes a dropped row a lost event, so what a poller drops reads every other poller: no
        // footprint is worked out there, nor is a crash known to break nothing
        boolean known = GLOBALS + 2 * events + at.pollers <= UNITS && !scenario.cleanup();
        crashesBreakNothing = !scenario.cleanup();
        pollerShift = known ? GLOBALS + 2 * events : 0;
        pollerUnits = known ? (1L << at.pollers) - 1 << pollerShift : UNKNOWN;
        List<Event> listed = scenario.events();
        long leases = 0;
        long[] deliverReads = new long[events]; // per event, the effects delivering it reads
        for (int e = 0; e < events; e++) {
            leases |= lease(e);
            for (int o = 0; o < events; o++) {
                boolean laterOfAggregate = o > e && listed.get(o).aggregate().equals(listed.get(e).aggregate());
                boolean samePayload = listed.get(o).payload().equals(listed.get(e).payload());
                if (o == e || laterOfAggregate || markersRead == SAME_PAYLOAD && samePayload || markersRead == ANY_MARKER) {
                    deliverReads[e] |= effects(events, o);
                }
            }
        }
        int codes = StepKinds.KINDS << 4;
        eventSlot = new int[codes];
        for (int code = 0; code < codes; code++) { // a poller's step acts on the head of its batch, if any
            int kind = code >>> 4;
            boolean ofPoller = StepKinds.ofPoller(kind) && (code & 15) < at.pollers;
            eventSlot[code] = ofPoller ? at.heldEvent(at.poller(code & 15), 0) : PRODUCED;
        }
        byStepAndEvent = new long[codes * columns];
        Arrays.fill(byStepAndEvent, UNKNOWN);
        long producer = 1L << PRODUCED | 1L << PRODUCE_FAILS;
        long claim = 1L << CLOCK | 1L << LAST_TOKEN | 1L << CURSOR | leases; // and its poller's unit
        long fenceClock = fencesReadClock ? 1L << CLOCK : 0;
        for (int e = 0; known && e < columns; e++) { // e == events: no event
            long lease = e < events ? lease(e) : 0;
            long effects = e < events ? effects(events, e) : 0;
            long deliverRead = (e < events ? deliverReads[e] : 0) | (deliveryReadsClock ? 1L << CLOCK : 0);
            put(StepKinds.PRODUCE, 0, e, 1L << PRODUCED | lease, 1L << PRODUCED | lease, 0);
            put(StepKinds.PRODUCE_FAILS_STEP, 0, e, producer, producer, 1);
            put(StepKinds.TICK, 0, e, 1L << CLOCK, 1L << CLOCK, 2 + at.pollers);
            for (int p = 0; p < at.pollers; p++) {
                long poller = 1L << pollerShift + p;
                // a claim's event column says whether it takes a row under a live lease (it reads every poller then)
                boolean readsHolders = claimsMayTakeLiveLeases && e == TAKES_LIVE_LEASE;
                put(StepKinds.CLAIM, p, e, (readsHolders ? pollerUnits : poller) | claim, poller | claim, 2 + p);
                if (deliveryAcks) { // fenced like an ack: it reads and writes the row's lease and status
                    put(StepKinds.DELIVER, p, e, poller | deliverRead | lease | fenceClock, poller | effects | lease, 2 + p);
                } else {
                    put(StepKinds.DELIVER, p, e, poller | deliverRead, poller | effects, 2 + p);
                }
                if (!acksTouchOthers) {
                    put(StepKinds.ACK, p, e, poller | lease | effects | fenceClock, poller | lease, 2 + p); // an ack checks the effect
                }
                put(StepKinds.RELEASE, p, e, poller | lease | fenceClock, poller | lease, 2 + p);
                int fault = 3 + at.pollers + 3 * p;
                put(StepKinds.CRASH, p, e, poller, poller, fault);
                put(StepKinds.LOSE_ACK, p, e, poller, poller, fault + 1);
                put(StepKinds.DELIVER_FAILS_STEP, p, e, poller, poller, fault + 2);
            }
        }
    }

    /** Whether a crash breaks nothing and shows nothing, so where it leads may be known from the route. */
    private final boolean crashesBreakNothing;

    boolean crashesBreakNothing() {
        return crashesBreakNothing;
    }

    /** A row's status and lease (owner, token, expiry): what claims, acks and releases read and write. */
    private static long lease(int e) {
        return 1L << (GLOBALS + e);
    }

    /** A row's effect and marker: what deliveries read and write. */
    private static long effects(int events, int e) {
        return 1L << (GLOBALS + events + e);
    }

    private void put(int kind, int poller, int event, long reads, long writes, int place) {
        byStepAndEvent[(kind << 4 | poller) * columns + event] = reads | writes | writes << UNITS
                | (long) place << 2 * UNITS;
    }

    /**
     * A step as its footprint needs it, enabled in {@code s}: its code, and above it the event it acts on
     * (the producer's next one, or the head of the poller's batch, which a step that acts on none ignores); for a
     * claim, whether it takes a row under a live lease ({@code takesLiveLease}, {@link #TAKES_LIVE_LEASE}).
     */
    int step(int[] s, int step, boolean takesLiveLease) {
        if (step >>> 4 == StepKinds.CLAIM) {
            return (takesLiveLease ? TAKES_LIVE_LEASE : 0) << 8 | step;
        }
        return s[eventSlot[step]] << 8 | step;
    }

    /** The footprint of a step as {@link #step} gives it, or of {@link #NO_STEP}. */
    long of(int step) {
        return step == NO_STEP ? UNKNOWN : byStepAndEvent[(step & 0xFF) * columns + (step >>> 8)];
    }

    /** A footprint's place in the list (past every other for an {@link #UNKNOWN} one). */
    static long place(long footprint) {
        return footprint >>> 2 * UNITS;
    }

    /** The pollers, a bit each, whose unit a step of footprint {@code footprint} reads or writes. */
    int pollersTouched(long footprint) {
        return (int) ((footprint & pollerUnits) >>> pollerShift);
    }

    /**
     * {@link Successors#KNOWN_STORED} if the successor by the step of footprint {@code a} of a state reached
     * by the step of footprint {@code cameBy} is known to be stored: the two steps commute, and {@code a}
     * comes first in the list; else 0. Without a branch, as the answer is a coin toss to the processor. An
     * {@link #UNKNOWN} footprint overlaps every other (every step writes something) and comes last.
     */
    static byte knownStored(long a, long cameBy) {
        long overlap = (a >>> UNITS & cameBy | cameBy >>> UNITS & a) & (1L << UNITS) - 1;
        long before = place(a) - place(cameBy) >>> 63;
        return (byte) (Successors.KNOWN_STORED * (before & overlap - 1 >>> 63));
    }
}
