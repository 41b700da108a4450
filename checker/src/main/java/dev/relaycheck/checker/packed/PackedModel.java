package dev.relaycheck.checker.packed;

import static dev.relaycheck.checker.packed.PackedLayout.ABSENT;
import static dev.relaycheck.checker.packed.PackedLayout.CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.CRASHES;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVERED;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVER_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.EFFECTS;
import static dev.relaycheck.checker.packed.PackedLayout.EXPIRY;
import static dev.relaycheck.checker.packed.PackedLayout.HELD;
import static dev.relaycheck.checker.packed.PackedLayout.LAST_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.LOST_ACKS;
import static dev.relaycheck.checker.packed.PackedLayout.MARKER_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.NEVER;
import static dev.relaycheck.checker.packed.PackedLayout.OWNER;
import static dev.relaycheck.checker.packed.PackedLayout.PENDING;
import static dev.relaycheck.checker.packed.PackedLayout.PHASE;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCED;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCE_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.READS;
import static dev.relaycheck.checker.packed.PackedLayout.STATUS;
import static dev.relaycheck.checker.packed.PackedLayout.TOKEN;

import dev.relaycheck.checker.search.StateSpace;
import dev.relaycheck.checker.search.Successors;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.PollerState.Phase;
import dev.relaycheck.model.RelayLogic.ConsumerShape;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Witness;

import java.util.List;

/**
 * The step semantics of {@link dev.relaycheck.model.RelayModel} and the judgement of
 * {@link dev.relaycheck.model.Invariants}, on a packed scratch. The logics of {@link PackedLogic} it
 * re-implements; any other logic's decisions it reads from a {@link LogicTable}, which asks the logic each
 * question once. The logic's shapes (how it commits, in which order a poller works) come from its answers.
 *
 * <p>It is exact on every state that breaks no invariant, and those are the only states a search expands:
 * the search stops at the first violation. So it keeps no more than such states need. Effects are 0 or 1,
 * markers exist exactly where effects do, stock and the per-aggregate applied order follow from which events
 * were applied, the business table holds exactly the events with an outbox row. A step that would leave that
 * ground (a second effect, a marker without its effect, an overtaking effect, a business write without its
 * row) is reported as breaking a state invariant, and the state it leads to is never stored.
 *
 * <p>Steps are ints, {@code kind << 4 | poller}, listed in the order {@code RelayModel.enabled} lists them.
 * Not thread-safe: it keeps scratch buffers, so each worker has its own.
 */
final class PackedModel {
    static final int PRODUCE = 0;
    static final int PRODUCE_FAILS_STEP = 1;
    static final int CLAIM = 2;
    static final int DELIVER = 3;
    static final int ACK = 4;
    static final int RELEASE = 5;
    static final int TICK = 6;
    static final int CRASH = 7;
    static final int LOSE_ACK = 8;
    static final int DELIVER_FAILS_STEP = 9;

    /** Most steps one state can enable: producer two, each poller one step and three faults, the clock one. */
    static int maxSteps(int pollers) {
        return 3 + 4 * pollers;
    }

    static final int IDLE = Phase.IDLE.ordinal();
    private static final int CLAIMING = Phase.CLAIMING.ordinal();
    private static final int TO_DELIVER = Phase.TO_DELIVER.ordinal();
    private static final int DELIVERING = Phase.DELIVERING.ordinal();
    private static final int TO_ACK = Phase.TO_ACK.ordinal();
    private static final int TO_RELEASE = Phase.TO_RELEASE.ordinal();

    private static final int STALE = 1 << (2 + Witness.STALE_ACK.ordinal());
    private static final int DUPLICATE = 1 << (2 + Witness.DUPLICATE_ABSORBED.ordinal());
    private static final int RECLAIMED = 1 << (2 + Witness.LEASE_RECLAIMED.ordinal());
    private static final int RETRIED = 1 << (2 + Witness.DELIVERY_RETRIED.ordinal());

    final PackedLayout at;
    private final PackedLogic logic; // the shipped logic re-implemented here, or null: the table answers
    private final LogicTable table; // null for a shipped logic
    private final LogicTable.Shapes shapes;
    private final Scenario scenario;
    private final int[] aggregate; // per event, an index of its aggregate
    private final int[] samePayload; // per event, the events with an equal payload, as a bit mask
    private final int firstPhase; // the phase a poller starts each item of its batch in
    private final int[] claimable;
    private final int[] changedSlots; // the journal of apply: which slots it wrote, and what they held before
    private final int[] changedFrom;
    private int changes;
    private boolean packing; // while apply packs as it writes: into packInto, at packAt
    private long[] packInto;
    private int packAt;
    private final int[] healingSteps;
    private final int[] healing;
    private final int healingBound;

    PackedModel(Scenario scenario, PackedLogic logic) {
        this(scenario, logic, new PackedLayout(scenario, logic));
    }

    /** A model over a layout already built for this scenario and logic (the space's, shared by its workers). */
    PackedModel(Scenario scenario, PackedLogic logic, PackedLayout at) {
        this(scenario, logic, null, LogicTable.Shapes.of(logic.prototype()), at,
                Healing.bound(new RelayModel(logic.prototype(), scenario)));
    }

    /** A model of a logic the engine does not know, over a layout built for its table. */
    PackedModel(LogicTable.Shared table, PackedLayout at) {
        this(table.scenario, null, new LogicTable(table, at), table.shapes, at, table.healingBound);
    }

    private PackedModel(Scenario scenario, PackedLogic logic, LogicTable table, LogicTable.Shapes shapes,
                        PackedLayout at, int healingBound) {
        this.scenario = scenario;
        this.logic = logic;
        this.table = table;
        this.shapes = shapes;
        this.at = at;
        List<Event> events = scenario.events();
        List<String> aggregates = events.stream().map(Event::aggregate).distinct().toList(); // at most 31: a bit each
        aggregate = new int[events.size()];
        samePayload = new int[events.size()];
        for (int e = 0; e < events.size(); e++) {
            aggregate[e] = aggregates.indexOf(events.get(e).aggregate());
            for (int o = 0; o < events.size(); o++) {
                if (events.get(o).payload().equals(events.get(e).payload())) {
                    samePayload[e] |= 1 << o;
                }
            }
        }
        firstPhase = shapes.acksFirst() ? TO_ACK : TO_DELIVER;
        claimable = new int[at.batch];
        changedSlots = new int[4 * at.size];
        changedFrom = new int[4 * at.size];
        healingSteps = new int[maxSteps(at.pollers)];
        healing = new int[at.size];
        this.healingBound = healingBound;
    }

    /** The readable step that step code {@code code} stands for in {@code s}, where it is enabled. */
    Step readableStep(int[] s, int code) {
        int p = code & 15;
        String poller = p < at.pollers ? scenario.pollers().get(p) : "";
        int b = p < at.pollers ? at.poller(p) : 0;
        boolean holds = p < at.pollers && s[b + HELD] > 0;
        String head = holds ? scenario.events().get(s[at.heldEvent(b, 0)]).id() : "";
        long token = holds ? s[at.heldToken(b, 0)] : 0;
        String next = s[PRODUCED] < at.events ? scenario.events().get(s[PRODUCED]).id() : "";
        return switch (code >>> 4) {
            case PRODUCE -> new Step.Produce(next);
            case PRODUCE_FAILS_STEP -> new Step.ProduceFails(next);
            case CLAIM -> new Step.Claim(poller);
            case DELIVER -> new Step.Deliver(poller, head, token);
            case ACK -> new Step.Ack(poller, head, token);
            case RELEASE -> new Step.Release(poller, head, token);
            case TICK -> new Step.Tick();
            case CRASH -> new Step.Crash(poller);
            case LOSE_ACK -> new Step.LoseAck(poller, head);
            case DELIVER_FAILS_STEP -> new Step.DeliverFails(poller, head);
            default -> throw new IllegalArgumentException("unknown step " + code);
        };
    }

    /** The memoised decisions' shared part, for a logic the engine does not know; null for a shipped one. */
    LogicTable.Shared shared() {
        return table == null ? null : table.shared;
    }

    /** What each step may read and write, for this model's logic. */
    StepFootprint footprints() {
        return table == null ? new StepFootprint(scenario, logic, at) : new StepFootprint(scenario, table.shared, at);
    }

    int[] initial() {
        int[] s = new int[at.size];
        if (!scenario.producedDuringRun()) {
            for (int e = 0; e < at.events; e++) {
                s[at.row(e) + STATUS] = PENDING;
            }
            s[PRODUCED] = at.events;
        }
        return s;
    }

    /** What {@link #apply} returns: the kind of invariant broken ({@link Successors}) in the low two bits. */
    static byte breaks(int result) {
        return (byte) (result & 3);
    }

    /** ... and the witnesses the step showed above them, a bit per {@link Witness} ordinal. */
    static int witnesses(int result) {
        return result >>> 2;
    }

    /**
     * Writes the steps enabled in {@code s} to {@code out}, in RelayModel's order, and returns how many.
     * {@code fair}: only what a healing run schedules (no faults, no tick).
     */
    int enabled(int[] s, int[] out, boolean fair) {
        int n = 0;
        if (s[PRODUCED] < at.events) {
            out[n++] = PRODUCE << 4;
            boolean failPoint = !shapes.splitProducer(); // a split producer fails only mid-way
            if (!fair && failPoint && s[PRODUCE_FAILS] < scenario.maxProduceFails()) {
                out[n++] = PRODUCE_FAILS_STEP << 4;
            }
        }
        int canClaim = -1; // the same for every idle poller, so worked out once
        for (int p = 0; p < at.pollers; p++) {
            int phase = s[at.poller(p) + PHASE];
            if (phase == IDLE) {
                if (canClaim < 0 || table != null && table.shared.claimKnowsPoller) {
                    canClaim = claimable(s, p) > 0 ? 1 : 0;
                }
                if (canClaim > 0) {
                    out[n++] = CLAIM << 4 | p;
                }
            } else if (phase == CLAIMING) {
                out[n++] = CLAIM << 4 | p;
            } else if (phase == TO_DELIVER || phase == DELIVERING) {
                out[n++] = DELIVER << 4 | p;
            } else if (phase == TO_ACK) {
                out[n++] = ACK << 4 | p;
            } else if (phase == TO_RELEASE) {
                out[n++] = RELEASE << 4 | p;
            }
        }
        if (fair) {
            return n;
        }
        if (s[CLOCK] < at.maxTicks) {
            out[n++] = TICK << 4;
        }
        for (int p = 0; p < at.pollers; p++) {
            int phase = s[at.poller(p) + PHASE];
            if (phase != IDLE && s[CRASHES] < scenario.maxCrashes()) {
                out[n++] = CRASH << 4 | p;
            }
            if (phase == TO_ACK && s[LOST_ACKS] < scenario.maxLostAcks()) {
                out[n++] = LOSE_ACK << 4 | p;
            }
            if (phase == TO_DELIVER && s[DELIVER_FAILS] < scenario.maxDeliverFails()) {
                out[n++] = DELIVER_FAILS_STEP << 4 | p;
            }
        }
        return n;
    }

    /**
     * Writes a slot; while {@link #apply} makes a successor, also journals what it held, so {@link #undo} can
     * restore it, and packs it into the successor's words. A healing run needs neither: it runs on a copy.
     */
    private void set(int[] s, int slot, int value) {
        if (packing) {
            changedSlots[changes] = slot;
            changedFrom[changes] = s[slot];
            changes++;
            at.pack(slot, value, packInto, packAt);
        }
        s[slot] = value;
    }

    /** Whether the last {@link #apply}, not yet undone, wrote only slots of poller {@code p}. */
    boolean wroteOnly(int p) {
        int first = at.poller(p);
        int end = first + at.pollerSlots();
        for (int k = changes - 1; k >= 0; k--) { // last first: a fault raises its counter last
            if (changedSlots[k] < first || changedSlots[k] >= end) {
                return false;
            }
        }
        return true;
    }

    /** Takes the last {@link #apply} back, so one scratch serves every successor of a state without copying. */
    void undo(int[] s) {
        while (changes > 0) {
            changes--;
            s[changedSlots[changes]] = changedFrom[changes];
        }
    }

    /**
     * Applies an enabled step to {@code s} in place, journaling its writes for {@link #undo}, and writes each
     * slot it writes into {@code into} at {@code offset}, which holds {@code s} packed: afterwards it holds the
     * successor packed (unless the step breaks a state invariant: such a state is never stored, and its words
     * are left half-written). Returns what the step broke and showed (see {@link #breaks}).
     */
    int apply(int[] s, int step, long[] into, int offset) {
        if (packInto != into) { // stored only when the buffer changes: each reference store runs the GC's barrier
            packInto = into;
        }
        packAt = offset;
        changes = 0;
        packing = true;
        try {
            return step(s, step);
        } finally {
            packing = false;
        }
    }

    /** A healing run's step: {@link #step}, for the agreement probe to follow a healing run step by step. */
    int healingStep(int[] s, int step) {
        return step(s, step);
    }

    /** Applies an enabled step to {@code s} in place, without a journal; returns what it broke and showed. */
    private int step(int[] s, int step) {
        int p = step & 15;
        int b = at.poller(p);
        switch (step >>> 4) {
            case PRODUCE:
                if (shapes.splitProducer()) {
                    return Successors.BREAKS_STATE; // the business write commits alone: PRODUCE_ATOMIC
                }
                set(s, at.row(s[PRODUCED]) + STATUS, PENDING);
                set(s, PRODUCED, s[PRODUCED] + 1);
                return 0;
            case PRODUCE_FAILS_STEP:
                set(s, PRODUCED, s[PRODUCED] + 1);
                set(s, PRODUCE_FAILS, s[PRODUCE_FAILS] + 1);
                return 0;
            case CLAIM:
                return claim(s, p, b);
            case DELIVER:
                return deliver(s, b);
            case ACK:
                return ack(s, p, b);
            case RELEASE:
                return release(s, p, b);
            case TICK:
                set(s, CLOCK, s[CLOCK] + 1);
                return 0;
            case CRASH:
                idle(s, b);
                set(s, CRASHES, s[CRASHES] + 1);
                return 0;
            case LOSE_ACK:
                idle(s, b);
                set(s, LOST_ACKS, s[LOST_ACKS] + 1);
                return 0;
            case DELIVER_FAILS_STEP:
                set(s, b + PHASE, TO_RELEASE);
                set(s, DELIVER_FAILS, s[DELIVER_FAILS] + 1);
                return 0;
            default:
                throw new IllegalArgumentException("unknown step " + step);
        }
    }

    /** Fills {@link #claimable} with the rows a claim by poller {@code p} would take now, in outbox order; returns how many. */
    private int claimable(int[] s, int p) {
        int n = 0;
        if (table != null) {
            for (int mask = table.claimable(s, p); mask != 0; mask &= mask - 1) {
                claimable[n++] = Integer.numberOfTrailingZeros(mask);
            }
            return n;
        }
        int now = s[CLOCK];
        int pendingAggregates = 0; // aggregates with a PENDING row earlier in the outbox
        for (int e = 0; e < at.events && n < at.batch; e++) {
            int r = at.row(e);
            if (s[r + STATUS] != PENDING) {
                continue;
            }
            int aggregateBit = 1 << aggregate[e];
            boolean headOfAggregate = (pendingAggregates & aggregateBit) == 0;
            pendingAggregates |= aggregateBit;
            boolean unleased = s[r + OWNER] == 0 || now >= s[r + EXPIRY];
            if ((unleased || logic == PackedLogic.CLAIM_IGNORES_LEASE)
                    && (headOfAggregate || logic == PackedLogic.NO_HEAD_OF_AGGREGATE)) {
                claimable[n++] = e;
            }
        }
        return n;
    }

    private int claim(int[] s, int p, int b) {
        int n;
        if (s[b + PHASE] == CLAIMING) {
            n = s[b + READS];
            for (int k = 0; k < n; k++) {
                claimable[k] = s[at.read(b, k)];
                set(s, at.read(b, k), 0);
            }
            set(s, b + READS, 0);
        } else {
            n = claimable(s, p);
            if (shapes.checkThenAct()) { // read now, write the leases in a later step
                set(s, b + PHASE, CLAIMING);
                set(s, b + READS, n);
                for (int k = 0; k < n; k++) {
                    set(s, at.read(b, k), claimable[k]);
                }
                return 0;
            }
        }
        int result = 0;
        int now = s[CLOCK];
        int floor = s[LAST_TOKEN];
        for (int k = 0; k < n; k++) {
            int e = claimable[k];
            int r = at.row(e);
            boolean hadLease = s[r + OWNER] != 0;
            if (hadLease && now < s[r + EXPIRY] && heldByAnother(s, p, e, s[r + TOKEN])) {
                result |= Successors.BREAKS_TRANSITION; // replaced a live lease its holder still holds: SINGLE_LIVE_LEASE
            }
            if (hadLease) {
                result |= RECLAIMED;
            }
            int token = table != null ? table.token(s, e, p)
                    : logic == PackedLogic.RECLAIM_KEEPS_TOKEN && hadLease ? s[r + TOKEN] : s[LAST_TOKEN] + 1;
            if (token <= floor) {
                result |= Successors.BREAKS_TRANSITION; // an old owner's token still matches: STALE_ACK_REJECTED
            }
            floor = Math.max(floor, token);
            set(s, r + OWNER, p + 1);
            set(s, r + TOKEN, token);
            set(s, r + EXPIRY, table != null ? table.expiry(now)
                    : logic == PackedLogic.LEASE_NEVER_EXPIRES ? NEVER : now + scenario.leaseTicks());
            set(s, LAST_TOKEN, Math.max(s[LAST_TOKEN], token));
            set(s, at.heldEvent(b, k), e);
            set(s, at.heldToken(b, k), token);
        }
        set(s, b + PHASE, firstPhase);
        set(s, b + HELD, n);
        return result;
    }

    /** Whether a poller other than {@code p} holds event {@code e} under {@code token} (it believes it owns the row). */
    private boolean heldByAnother(int[] s, int p, int e, int token) {
        for (int q = 0; q < at.pollers; q++) {
            int b = at.poller(q);
            for (int k = 0; q != p && k < s[b + HELD]; k++) {
                if (s[at.heldEvent(b, k)] == e && s[at.heldToken(b, k)] == token) {
                    return true;
                }
            }
        }
        return false;
    }

    private int deliver(int[] s, int b) {
        int e = s[at.heldEvent(b, 0)];
        int token = s[at.heldToken(b, 0)];
        int r = at.row(e);
        int key = table == null ? 0 : table.keyId(e, token); // the readable consumer asks it first
        if (shapes.checksMarker() && (table == null ? hasMarkerKey(s, e, token) : hasMarkerKey(s, key))) {
            afterDelivery(s, b);
            return DUPLICATE;
        }
        if (shapes.consumer() == ConsumerShape.MARKER_THEN_EFFECT && s[r + EFFECTS] > 0) {
            // a second marker for an applied event breaks nothing yet, and a row holds one marker
            throw new PackedSpace.Overflow("a second marker for applied event " + scenario.events().get(e).id());
        }
        if (shapes.consumer() != ConsumerShape.ONE_TRANSACTION) {
            // one of marker and effect commits alone (MARKER_IFF_EFFECT), or the effect a second time
            return Successors.BREAKS_STATE;
        }
        if (s[r + EFFECTS] > 0 || appliedLaterOfAggregate(s, e)) {
            return Successors.BREAKS_STATE; // EFFECT_AT_MOST_ONCE, or AGGREGATE_ORDER
        }
        if (table != null && !shapes.checksMarker() && hasMarkerKey(s, key)) {
            return Successors.BREAKS_STATE; // the marker takes another event's key: that one loses its marker
        }
        set(s, r + EFFECTS, 1);
        if (logic == PackedLogic.NEW_ID_ON_RETRY || table != null && table.shared.markerTokens) {
            set(s, r + MARKER_TOKEN, token);
        }
        afterDelivery(s, b);
        return 0;
    }

    /** Whether the consumer holds a marker under key {@code key} (a {@link LogicTable.Shared#keyId}). */
    private boolean hasMarkerKey(int[] s, int key) {
        for (int o = 0; o < at.events; o++) {
            int r = at.row(o);
            if (s[r + EFFECTS] > 0 && table.markerKeyId(o, s[r + MARKER_TOKEN]) == key) {
                return true;
            }
        }
        return false;
    }

    /** Whether the consumer finds the dedup key of this delivery among its markers. */
    private boolean hasMarkerKey(int[] s, int e, int token) {
        if (logic == PackedLogic.DEDUP_BY_PAYLOAD) {
            for (int o = 0; o < at.events; o++) {
                if ((samePayload[e] >>> o & 1) != 0 && s[at.row(o) + EFFECTS] > 0) {
                    return true;
                }
            }
            return false;
        }
        int r = at.row(e);
        return s[r + EFFECTS] > 0 && (logic != PackedLogic.NEW_ID_ON_RETRY || s[r + MARKER_TOKEN] == token);
    }

    private boolean appliedLaterOfAggregate(int[] s, int e) {
        for (int o = e + 1; o < at.events; o++) {
            if (aggregate[o] == aggregate[e] && s[at.row(o) + EFFECTS] > 0) {
                return true;
            }
        }
        return false;
    }

    private void afterDelivery(int[] s, int b) {
        if (shapes.acksFirst()) {
            advance(s, b);
        } else {
            set(s, b + PHASE, TO_ACK);
        }
    }

    private int ack(int[] s, int p, int b) {
        int e = s[at.heldEvent(b, 0)];
        int token = s[at.heldToken(b, 0)];
        int r = at.row(e);
        boolean pending = s[r + STATUS] == PENDING;
        boolean tokenMatches = s[r + OWNER] != 0 && s[r + TOKEN] == token;
        boolean accepted = table != null ? table.acceptsAck(s, e, token, p)
                : pending && (tokenMatches || logic == PackedLogic.ACK_IGNORES_TOKEN);
        int result;
        if (accepted) {
            boolean changes = pending || s[r + OWNER] != 0; // an accepted ack leaves the row DELIVERED, unleased
            result = tokenMatches || !changes ? 0 : Successors.BREAKS_TRANSITION; // STALE_ACK_REJECTED
            set(s, r + STATUS, DELIVERED);
            clearLease(s, r);
            if (s[r + EFFECTS] == 0) {
                result = Successors.BREAKS_STATE; // DELIVERED without its effect: NO_LOST_EVENT
            }
        } else {
            result = STALE;
        }
        if (shapes.acksFirst()) {
            set(s, b + PHASE, TO_DELIVER);
        } else {
            advance(s, b);
        }
        return result;
    }

    private int release(int[] s, int p, int b) {
        int e = s[at.heldEvent(b, 0)];
        int token = s[at.heldToken(b, 0)];
        int r = at.row(e);
        boolean pending = s[r + STATUS] == PENDING;
        boolean leased = s[r + OWNER] != 0;
        boolean tokenMatches = leased && s[r + TOKEN] == token;
        boolean accepted = table != null ? table.acceptsRelease(s, e, token, p)
                : pending && (tokenMatches || logic == PackedLogic.RELEASE_IGNORES_TOKEN);
        int result;
        if (accepted) {
            // freeing a lease the token does not match breaks STALE_ACK_REJECTED; an absent lease changes nothing
            result = RETRIED | (leased && !tokenMatches ? Successors.BREAKS_TRANSITION : 0);
            clearLease(s, r);
        } else {
            result = STALE;
        }
        advance(s, b);
        return result;
    }

    private void clearLease(int[] s, int r) {
        set(s, r + OWNER, 0);
        set(s, r + TOKEN, 0);
        set(s, r + EXPIRY, 0);
    }

    /** Done with the head of the batch: on to the next item, or idle. */
    private void advance(int[] s, int b) {
        int held = s[b + HELD];
        if (held <= 1) {
            idle(s, b);
            return;
        }
        for (int k = 1; k < held; k++) {
            set(s, at.heldEvent(b, k - 1), s[at.heldEvent(b, k)]);
            set(s, at.heldToken(b, k - 1), s[at.heldToken(b, k)]);
        }
        set(s, at.heldEvent(b, held - 1), 0);
        set(s, at.heldToken(b, held - 1), 0);
        set(s, b + HELD, held - 1);
        set(s, b + PHASE, firstPhase);
    }

    private void idle(int[] s, int b) {
        for (int i = b; i < b + at.pollerSlots(); i++) {
            if (s[i] != 0) {
                set(s, i, 0);
            }
        }
    }

    /** {@code Invariants.isComplete}: the producer is done and every produced event is DELIVERED, applied once. */
    boolean complete(int[] s) {
        if (s[PRODUCED] < at.events) {
            return false;
        }
        for (int e = 0; e < at.events; e++) {
            int r = at.row(e);
            if (s[r + STATUS] != ABSENT && (s[r + STATUS] != DELIVERED || s[r + EFFECTS] != 1)) {
                return false;
            }
        }
        return true;
    }

    /** {@link Healing#run}: round-robin over the fair steps, ticking when none is enabled, until complete. */
    boolean healingFails(int[] from) {
        return healing(from) != StateSpace.HEALS;
    }

    /**
     * {@link #healingFails}, saying how: {@link StateSpace#HEALS}, {@link StateSpace#NEVER_COMPLETES} or
     * {@link StateSpace#BREAKS_WHILE_HEALING}.
     */
    int healing(int[] from) {
        int[] s = healing;
        System.arraycopy(from, 0, s, 0, s.length);
        int bound = healingBound;
        int turn = 0;
        for (int taken = 0; taken < bound && !complete(s); taken++) {
            int n = enabled(s, healingSteps, true);
            int step = n == 0 ? TICK << 4 : healingSteps[turn++ % n];
            if (breaks(step(s, step)) != Successors.NONE) {
                return StateSpace.BREAKS_WHILE_HEALING;
            }
        }
        return complete(s) ? StateSpace.HEALS : StateSpace.NEVER_COMPLETES;
    }
}
