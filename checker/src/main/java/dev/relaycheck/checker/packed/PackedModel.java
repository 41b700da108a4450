package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.HealingOutcome;
import dev.relaycheck.checker.space.StateSpace;
import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.PollerState.Phase;
import dev.relaycheck.model.RelayLogic.ConsumerShape;
import dev.relaycheck.model.RelayLogic.CursorRule;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static dev.relaycheck.checker.packed.StepKinds.PRODUCE;
import static dev.relaycheck.checker.packed.StepKinds.PRODUCE_FAILS_STEP;
import static dev.relaycheck.checker.packed.StepKinds.CLAIM;
import static dev.relaycheck.checker.packed.StepKinds.DELIVER;
import static dev.relaycheck.checker.packed.StepKinds.ACK;
import static dev.relaycheck.checker.packed.StepKinds.RELEASE;
import static dev.relaycheck.checker.packed.StepKinds.TICK;
import static dev.relaycheck.checker.packed.StepKinds.CRASH;
import static dev.relaycheck.checker.packed.StepKinds.LOSE_ACK;
import static dev.relaycheck.checker.packed.StepKinds.DELIVER_FAILS_STEP;
import static dev.relaycheck.checker.packed.StepKinds.RENEW;
import static dev.relaycheck.checker.packed.StepKinds.PURGE;
import static dev.relaycheck.checker.packed.StepKinds.CLEANUP;
import static dev.relaycheck.checker.packed.StepKinds.SKEW;
import static dev.relaycheck.checker.packed.StepKinds.BEGIN;
import static dev.relaycheck.checker.packed.StepKinds.COMMIT;
import static dev.relaycheck.checker.packed.StepKinds.KINDS;
import static dev.relaycheck.checker.packed.PackedLayout.ABSENT;
import static dev.relaycheck.checker.packed.PackedLayout.CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.CRASHES;
import static dev.relaycheck.checker.packed.PackedLayout.CURSOR;
import static dev.relaycheck.checker.packed.PackedLayout.DELETED;
import static dev.relaycheck.checker.packed.PackedLayout.DELETED_DELIVERED;
import static dev.relaycheck.checker.packed.PackedLayout.DELETED_PENDING;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVERED;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVER_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.EFFECTS;
import static dev.relaycheck.checker.packed.PackedLayout.EXPIRY;
import static dev.relaycheck.checker.packed.PackedLayout.HELD;
import static dev.relaycheck.checker.packed.PackedLayout.IN_FLIGHT;
import static dev.relaycheck.checker.packed.PackedLayout.LAST_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.LEASE_CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.LOST_ACKS;
import static dev.relaycheck.checker.packed.PackedLayout.MARKER_AT;
import static dev.relaycheck.checker.packed.PackedLayout.MARKER_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.NEVER;
import static dev.relaycheck.checker.packed.PackedLayout.OWNER;
import static dev.relaycheck.checker.packed.PackedLayout.PENDING;
import static dev.relaycheck.checker.packed.PackedLayout.PHASE;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCED;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCE_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.PURGED;
import static dev.relaycheck.checker.packed.PackedLayout.READS;
import static dev.relaycheck.checker.packed.PackedLayout.RENEWALS;
import static dev.relaycheck.checker.packed.PackedLayout.SKEWS;
import static dev.relaycheck.checker.packed.PackedLayout.STATUS;
import static dev.relaycheck.checker.packed.PackedLayout.TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.VERSION;

/**
 * The step semantics of {@link dev.relaycheck.model.RelayModel} and the judgement of
 * {@link dev.relaycheck.model.Invariants}, on a packed scratch. The logics of {@link PackedLogic} it
 * re-implements, on the scenarios without renewals, skew, open producers, a cursor or a cleanup; any other logic's decisions, and a shipped one's in
 * a scenario with those hazards, it reads from a {@link LogicTable}, which asks the logic each question once.
 * The logic's shapes (how it commits, in which order a poller works, where its tokens come from, what it does
 * with an ack's result) come from its answers.
 *
 * <p>It is exact on every state that breaks no invariant, and those are the only states a search expands:
 * the search stops at the first violation. So it keeps no more than such states need. Effects are 0 or 1,
 * a marker exists exactly where an effect does unless a retention policy purged it, stock and the per-aggregate
 * applied order follow from which events were applied, the business table holds exactly the events with an
 * outbox row or one the cleanup deleted, and no row committed below a cursor relay's cursor is still to deliver.
 * A step that would leave that ground (a second effect, a marker without its effect, an overtaking effect, a
 * business write without its row, a row passed over) is reported as breaking a state invariant, and the state
 * it leads to is never stored.
 *
 * <p>Steps are ints ({@link StepKinds}), listed in the order {@code RelayModel.enabled} lists them. Not thread-safe: it keeps scratch buffers, so each worker has its own.
 */
final class PackedModel {
    static final int IDLE = Phase.IDLE.ordinal();
    private static final int CLAIMING = Phase.CLAIMING.ordinal();
    private static final int TO_DELIVER = Phase.TO_DELIVER.ordinal();
    private static final int DELIVERING = Phase.DELIVERING.ordinal();
    private static final int TO_ACK = Phase.TO_ACK.ordinal();
    private static final int TO_RELEASE = Phase.TO_RELEASE.ordinal();

    private static final int STALE = seen(Witness.STALE_ACK);
    private static final int DUPLICATE = seen(Witness.DUPLICATE_ABSORBED);
    private static final int RECLAIMED = seen(Witness.LEASE_RECLAIMED);
    private static final int RETRIED = seen(Witness.DELIVERY_RETRIED);
    private static final int LATE_REDELIVERY = seen(Witness.LATE_REDELIVERY);
    private static final int MID_BATCH = seen(Witness.ACK_MID_BATCH);
    private static final int UNMATCHED_ACK = seen(Witness.UNMATCHED_ACK);
    private static final int UNMATCHED_RELEASE = seen(Witness.UNMATCHED_RELEASE);
    private static final int RENEWED = seen(Witness.LEASE_RENEWED);
    private static final int RENEWAL_REFUSED = seen(Witness.RENEWAL_REFUSED);
    private static final int SKEWED = seen(Witness.CLOCK_SKEWED);
    private static final int LATE_COMMIT = seen(Witness.LATE_COMMIT);
    private static final int CLEANED_UP = seen(Witness.ROW_CLEANED_UP);

    /** A step's result bit for witness {@code w} (see {@link #witnesses}). */
    private static int seen(Witness w) {
        return 1 << (2 + w.ordinal());
    }

    /** The same result, breaking a state invariant (which outweighs a transition's). */
    private static int breakingState(int result) {
        return result & ~3 | Successors.BREAKS_STATE;
    }

    /** The same result, breaking a transition invariant unless it breaks a state invariant already. */
    private static int breakingTransition(int result) {
        return (result & 3) == Successors.BREAKS_STATE ? result : result | Successors.BREAKS_TRANSITION;
    }

    final PackedLayout at;
    private final PackedLogic logic; // the shipped logic re-implemented here, or null: the table answers
    private final LogicTable table; // null for a shipped logic
    private final LogicTable.Shapes shapes;
    private final Scenario scenario;
    private final int[] aggregate; // per event, an index of its aggregate
    private final int[] samePayload; // per event, the events with an equal payload, as a bit mask
    private final int[] byId; // the events in id order: the consumer's cleanup purges in that order
    private final int[] ownerCode; // per poller, the code of the instance id it presents (the first poller's with it, + 1)
    private final int firstPhase; // the phase a poller starts each item of its batch in
    private final int[] claimable;
    private final int[] changedSlots; // the journal of apply: which slots it wrote, and what they held before
    private final int[] changedFrom;
    private int changes;
    private boolean packing; // while apply journals each write and packs it (exact tokens: as it writes, else after)
    private final boolean renumbers; // tokens renumbered canonically after each step
    private final int[] ranked; // scratch of renumber: the distinct tokens a state holds, sorted
    private final boolean[] tokenBearing; // per slot, whether writing it may change which tokens a state holds
    private boolean symmetric; // pollers put in canonical order after each step (see PollerSymmetry)
    private final boolean claimsMayTakeLiveLeases; // as StepFootprint knows them: else it never asks
    private boolean permuted; // whether the last apply reordered the pollers
    private final int[] owned; // scratch of the canonical order: per poller, the rows it owns, a bit each
    private final int[] order;
    private final int[] moved; // per poller, the place the canonical order moves it to
    private final int[] blocks;
    private final long[] sortKeys; // per poller, its sort key (where the keys fit in 63 bits)
    private final int[] slotBits; // per slot of a poller, its field's width
    private final int keyBits;
    private long[] packInto;
    private int packAt;
    private final int[] healingSteps;
    private final int[] healing;
    private final int healingBound;
    // the surroundings' hazards and relay shapes, all off for a shipped logic's re-implementation
    private final boolean perClaimer; // whether a claim's rows depend on who claims
    private final boolean keepsCursor;
    private final boolean dates; // the consumer dates its markers
    private final boolean lateRedelivery; // the scenario asks for late redeliveries to be told apart
    private final boolean midBatch; // ... and for acks made mid-batch
    private final boolean unmatched; // ... and for acks and releases that matched no row
    private final int grantedLease;

    PackedModel(Scenario scenario, PackedLogic logic) {
        this(scenario, logic, new PackedLayout(scenario, logic));
    }

    /** A model over a layout already built for this scenario and logic (the space's, shared by its workers). */
    PackedModel(Scenario scenario, PackedLogic logic, PackedLayout at) {
        this(scenario, logic, null, LogicTable.Shapes.of(logic.prototype(), scenario.leaseTicks()), at,
                new RelayModel(logic.prototype(), scenario));
    }

    /** A model of a logic whose decisions a table answers, over a layout built for its table. */
    PackedModel(LogicTable.Shared table, PackedLayout at) {
        this(table.scenario, null, new LogicTable(table, at), table.shapes, at, new RelayModel(table.logic, table.scenario));
    }

    private PackedModel(Scenario scenario, PackedLogic logic, LogicTable table, LogicTable.Shapes shapes,
                        PackedLayout at, RelayModel readable) {
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
        byId = IntStream.range(0, events.size()).boxed()
                .sorted(Comparator.comparing(e -> events.get(e).id())).mapToInt(Integer::intValue).toArray();
        ownerCode = new int[at.pollers];
        List<String> ids = scenario.pollers().stream().map(scenario::instanceId).toList();
        for (int p = 0; p < at.pollers; p++) {
            ownerCode[p] = ids.indexOf(ids.get(p)) + 1;
        }
        firstPhase = shapes.acksFirst() ? TO_ACK : TO_DELIVER;
        claimable = new int[Math.max(at.batch, at.events)];
        changedSlots = new int[4 * at.size];
        changedFrom = new int[4 * at.size];
        healingSteps = new int[at.maxSteps];
        healing = new int[at.size];
        this.healingBound = Healing.bound(readable);
        perClaimer = table != null && table.shared.claimKnowsPoller;
        keepsCursor = LogicTable.keepsCursor(scenario, shapes);
        dates = table != null && table.shared.datesMarkers;
        Set<Witness> required = scenario.requiredWitnesses();
        lateRedelivery = required.contains(Witness.LATE_REDELIVERY);
        midBatch = required.contains(Witness.ACK_MID_BATCH);
        unmatched = required.contains(Witness.UNMATCHED_ACK) || required.contains(Witness.UNMATCHED_RELEASE);
        grantedLease = readable.grantedLease();
        renumbers = table != null && table.shared.renumbers;
        claimsMayTakeLiveLeases = table != null || logic == PackedLogic.CLAIM_IGNORES_LEASE
                || logic == PackedLogic.CHECK_THEN_ACT_CLAIM;
        ranked = new int[at.size];
        tokenBearing = new boolean[at.size];
        tokenBearing[LAST_TOKEN] = true;
        for (int e = 0; e < at.events; e++) {
            for (int slot : new int[] {OWNER, TOKEN, VERSION, MARKER_TOKEN}) {
                tokenBearing[at.row(e) + slot] = true;
            }
            // a marker's presence counts its token only where its key holds one
            tokenBearing[at.row(e) + EFFECTS] = table != null && table.shared.keyedByToken[e];
            tokenBearing[at.row(e) + PURGED] = tokenBearing[at.row(e) + EFFECTS];
        }
        for (int p = 0; p < at.pollers; p++) {
            tokenBearing[at.poller(p) + HELD] = true;
            for (int k = 0; k < at.batch; k++) {
                tokenBearing[at.heldToken(at.poller(p), k)] = true;
            }
        }
        claimMasks = new int[at.pollers];
        owned = new int[at.pollers];
        order = new int[at.pollers];
        moved = new int[at.pollers];
        blocks = new int[at.pollers * at.pollerSlots()];
        member = new int[at.size];
        sortKeys = new long[at.pollers];
        slotBits = new int[at.pollerSlots()];
        int bits = at.events;
        for (int i = 0; i < slotBits.length; i++) {
            slotBits[i] = at.width(at.poller(0) + i);
            bits += slotBits[i];
        }
        keyBits = bits;
    }

    /**
     * This model with its states' pollers kept in canonical order ({@code symmetric}): for a logic and scenario in
     * which pollers are interchangeable ({@link PollerSymmetry}), so one state stands for each of its permutations.
     */
    PackedModel symmetric(boolean symmetric) {
        this.symmetric = symmetric;
        return this;
    }

    /** Whether the last {@link #apply} moved pollers to put them in canonical order (its route no longer holds). */
    boolean permuted() {
        return permuted;
    }

    /**
     * The canonical order of the pollers of {@code s}: {@code order[k]} is the poller that goes to place k. Pollers
     * sort by their slots, then by the rows they own; two that tie are alike in everything (a row has one owner, so
     * two pollers owning the same rows own none), so which goes first changes nothing.
     */
    int[] canonicalOrder(int[] s) {
        Arrays.fill(owned, 0);
        for (int e = 0; e < at.events; e++) {
            int o = s[at.row(e) + OWNER];
            if (o > 0) {
                owned[o - 1] |= 1 << e;
            }
        }
        boolean keyed = keyBits <= 63;
        for (int p = 0; p < at.pollers; p++) {
            order[p] = p;
            if (keyed) {
                sortKeys[p] = sortKey(s, p);
            }
        }
        for (int i = 1; i < at.pollers; i++) {
            for (int j = i; j > 0 && (keyed ? sortKeys[order[j - 1]] > sortKeys[order[j]]
                    : comparePollers(s, order[j - 1], order[j]) > 0); j--) {
                int t = order[j - 1];
                order[j - 1] = order[j];
                order[j] = t;
            }
        }
        return order;
    }

    /**
     * Poller p's slots, each in its field's width, then the rows it owns, as one number: pollers order as their
     * numbers do, the order {@link #comparePollers} gives where they take more than 63 bits.
     */
    private long sortKey(int[] s, int p) {
        int b = at.poller(p);
        long key = 0;
        for (int i = 0; i < at.pollerSlots(); i++) {
            key = key << slotBits[i] | s[b + i];
        }
        return key << at.events | owned[p];
    }

    private int comparePollers(int[] s, int p, int q) {
        int bp = at.poller(p);
        int bq = at.poller(q);
        for (int i = 0; i < at.pollerSlots(); i++) {
            if (s[bp + i] != s[bq + i]) {
                return Integer.compare(s[bp + i], s[bq + i]);
            }
        }
        return Integer.compare(owned[p], owned[q]);
    }

    /**
     * Moves each poller p of {@code s} to place {@code to[p]}: its slots, and the owner of every row it leases. Through
     * {@link #set}, so within {@link #apply} it is journaled and packed like the step's own writes.
     */
    void movePollers(int[] s, int[] to) {
        int slots = at.pollerSlots();
        for (int p = 0; p < at.pollers; p++) {
            System.arraycopy(s, at.poller(p), blocks, p * slots, slots);
        }
        for (int p = 0; p < at.pollers; p++) {
            int b = at.poller(to[p]);
            for (int i = 0; i < slots; i++) {
                if (s[b + i] != blocks[p * slots + i]) {
                    set(s, b + i, blocks[p * slots + i]);
                }
            }
        }
        for (int e = 0; e < at.events; e++) {
            int o = s[at.row(e) + OWNER];
            if (o > 0 && to[o - 1] != o - 1) {
                set(s, at.row(e) + OWNER, to[o - 1] + 1);
            }
        }
    }

    /** Puts the pollers of {@code s} in canonical order; returns whether any moved. */
    private boolean canonicalizePollers(int[] s) {
        int[] ord = canonicalOrder(s);
        boolean identity = true;
        for (int k = 0; k < at.pollers; k++) {
            moved[ord[k]] = k;
            identity &= ord[k] == k;
        }
        if (!identity) {
            movePollers(s, moved);
        }
        return !identity;
    }

    /** The code of poller {@code p}'s instance id, as a lease's owner holds it (the first poller presenting it, + 1). */
    int ownerCode(int p) {
        return ownerCode[p];
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
            case RENEW -> new Step.Renew(poller, head, token);
            case PURGE -> new Step.Purge(scenario.events().get(p).id());
            case CLEANUP -> new Step.Cleanup();
            case SKEW -> new Step.Skew(scenario.pollers().get(s[SKEWS]), p - at.maxSkew);
            case BEGIN -> new Step.Begin(next);
            case COMMIT -> new Step.Commit(scenario.events().get(p).id());
            default -> throw new IllegalArgumentException("unknown step " + code);
        };
    }

    /** The memoised decisions' shared part, for a logic whose decisions a table answers; null for a shipped one. */
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

    /** Poller {@code p}'s clock minus the database's (0 until the search chose it). */
    private int skewOf(int[] s, int p) {
        return p < s[SKEWS] ? s[at.skew(p)] - at.maxSkew : 0;
    }

    /**
     * Writes the steps enabled in {@code s} to {@code out}, in RelayModel's order, and returns how many.
     * {@code fair}: only what a healing run schedules (no faults, no tick).
     */
    int enabled(int[] s, int[] out, boolean fair) {
        int n = 0;
        claimsOf = s;
        claimsValid = false;
        if (at.maxSkew > 0 && s[SKEWS] < at.pollers) { // the clocks are chosen first: nothing else happens before
            for (int v = 0; v <= 2 * at.maxSkew; v++) {
                out[n++] = SKEW << 4 | v;
            }
            return n;
        }
        if (scenario.producersOverlap()) {
            if (s[PRODUCED] < at.events) {
                out[n++] = BEGIN << 4;
            }
            for (int e = 0; e < at.events; e++) {
                if (s[at.row(e) + IN_FLIGHT] != 0) {
                    out[n++] = COMMIT << 4 | e;
                }
            }
        } else if (s[PRODUCED] < at.events) {
            out[n++] = PRODUCE << 4;
            boolean failPoint = !shapes.splitProducer(); // a split producer fails only mid-way
            if (!fair && failPoint && s[PRODUCE_FAILS] < scenario.maxProduceFails()) {
                out[n++] = PRODUCE_FAILS_STEP << 4;
            }
        }
        int canClaim = -1; // the same for every idle poller, so worked out once
        boolean live = false;
        liveClaims = 0;
        int mask = 0;
        for (int p = 0; p < at.pollers; p++) {
            int b = at.poller(p);
            int phase = s[b + PHASE];
            if (phase == IDLE) {
                if (canClaim < 0 || perClaimer) {
                    int rows = claimable(s, p);
                    canClaim = rows > 0 ? 1 : 0;
                    live = claimsMayTakeLiveLeases && anyLive(s, claimable, rows);
                    mask = 0;
                    for (int k = 0; k < rows; k++) {
                        mask |= 1 << claimable[k];
                    }
                }
                claimMasks[p] = mask;
                if (canClaim > 0) {
                    out[n++] = CLAIM << 4 | p;
                    liveClaims |= live ? 1 << p : 0;
                }
            } else if (phase == CLAIMING) {
                out[n++] = CLAIM << 4 | p;
                liveClaims |= claimsMayTakeLiveLeases && readsLive(s, b) ? 1 << p : 0;
            } else if (phase == TO_DELIVER || phase == DELIVERING) {
                out[n++] = DELIVER << 4 | p;
            } else if (phase == TO_ACK) {
                out[n++] = ACK << 4 | p;
            } else if (phase == TO_RELEASE) {
                out[n++] = RELEASE << 4 | p;
            }
        }
        if (s[RENEWALS] < scenario.maxRenewals()) {
            for (int p = 0; p < at.pollers; p++) {
                int phase = s[at.poller(p) + PHASE];
                if (phase == TO_DELIVER || phase == TO_ACK) {
                    out[n++] = RENEW << 4 | p;
                }
            }
        }
        if (!fair && s[CLOCK] < at.maxTicks) {
            out[n++] = TICK << 4;
        }
        if (shapes.retention() >= 0 && table != null) {
            for (int e : byId) {
                if (purgeDue(s, e)) {
                    out[n++] = PURGE << 4 | e;
                }
            }
        }
        if (scenario.cleanup() && table != null && cleanupTakes(s) != 0) {
            out[n++] = CLEANUP << 4;
        }
        claimsValid = true;
        if (fair) {
            return n;
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

    /** The pollers whose claim, as the last {@link #enabled} listed it, takes a row under a live lease, a bit each. */
    private int liveClaims;
    /**
     * The rows each idle poller's claim takes, as the last {@link #enabled} found them (a bit mask each), for the claim
     * step to take from the same scratch without asking the tables again: valid while that scratch holds the state
     * they were found in ({@code claimsOf}), so from {@link #enabled} to the next step, and again after its undo.
     */
    private final int[] claimMasks;
    private int[] claimsOf;
    private boolean claimsValid;
    private boolean claimsValidBeforeApply;

    /** Whether poller {@code p}'s claim, as the last {@link #enabled} listed it, takes a row under a live lease. */
    boolean claimTakesLiveLease(int p) {
        return (liveClaims >>> p & 1) != 0;
    }

    /** Step {@code code} in {@code s} as its footprint needs it, worked out afresh (for tests). */
    int footprintStep(StepFootprint footprints, int[] s, int code) {
        return footprints.step(s, code, code >>> 4 == CLAIM && claimTakesLiveLease(s, code & 15));
    }

    /** Whether poller {@code p}'s claim in {@code s} takes a row under a live lease (worked out afresh, for tests). */
    boolean claimTakesLiveLease(int[] s, int p) {
        int b = at.poller(p);
        return s[b + PHASE] == CLAIMING ? readsLive(s, b) : anyLive(s, claimable, claimable(s, p));
    }

    /** Whether any of the first {@code n} rows of {@code events} holds a lease live now. */
    private boolean anyLive(int[] s, int[] events, int n) {
        for (int k = 0; k < n; k++) {
            if (liveLease(s, at.row(events[k]))) {
                return true;
            }
        }
        return false;
    }

    /** Whether a row in the read set of poller {@code b}'s check-then-act claim holds a lease live now. */
    private boolean readsLive(int[] s, int b) {
        for (int k = 0; k < s[b + READS]; k++) {
            if (liveLease(s, at.row(s[at.read(b, k)]))) {
                return true;
            }
        }
        return false;
    }

    /** Whether event {@code e}'s marker is dated and older than the retention: the consumer's cleanup may purge it. */
    private boolean purgeDue(int[] s, int e) {
        int r = at.row(e);
        return s[r + MARKER_AT] > 0 && s[r + PURGED] == 0 && s[CLOCK] - (s[r + MARKER_AT] - 1) >= shapes.retention();
    }

    /** The events whose rows the outbox cleanup would delete now, as a bit mask. */
    private int cleanupTakes(int[] s) {
        int taken = 0;
        for (int e = 0; e < at.events; e++) {
            if (s[at.row(e) + STATUS] != ABSENT && table.cleanupTakes(s, e)) {
                taken |= 1 << e;
            }
        }
        return taken;
    }

    /**
     * Writes a slot; while {@link #apply} makes a successor, also journals what it held, so {@link #undo} can
     * restore it, and packs it into the successor's words. A healing run needs neither: it runs on a copy.
     */
    private void set(int[] s, int slot, int value) {
        if (hashing) {
            healingHash += (long) (value - s[slot]) * HealingMemo.slotWeight(slot);
        }
        if (packing) {
            changedSlots[changes] = slot;
            changedFrom[changes] = s[slot];
            changes++;
            if (!renumbers) {
                at.pack(slot, value, packInto, packAt);
            }
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
        claimsValid = claimsValidBeforeApply && s == claimsOf;
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
        claimsValidBeforeApply = claimsValid && s == claimsOf;
        try {
            int result = step(s, step);
            permuted = false;
            if (renumbers && breaks(result) != Successors.BREAKS_STATE) {
                if (journalTouchesTokens()) {
                    renumber(s);
                }
                permuted = symmetric && canonicalizePollers(s);
                for (int k = 0; k < changes; k++) { // a token may pass its field between a claim and the renumbering
                    at.pack(changedSlots[k], s[changedSlots[k]], into, offset);
                }
            } else if (symmetric && breaks(result) != Successors.BREAKS_STATE) {
                permuted = canonicalizePollers(s);
            }
            return result;
        } finally {
            packing = false;
        }
    }

    /**
     * Whether the step just journaled wrote a slot that holds a token or decides which tokens count (a lease's owner,
     * a batch's size, a marker's presence): only such a step can leave a state's tokens other than 1..n.
     */
    private boolean journalTouchesTokens() {
        for (int k = 0; k < changes; k++) {
            if (tokenBearing[changedSlots[k]]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Renumbers the tokens of {@code s} canonically, as {@code CanonicalTokens} renumbers a readable state: each
     * positive token (the last issued, each lease's, each per-row version, each marker keyed by its delivery's, each
     * held one) becomes its rank among the distinct ones, order kept. Tokens are ranks but for the one a claim just
     * issued, so they are nearly always below 64: a bit mask of them gives each one's rank by a count of bits.
     */
    private void renumber(int[] s) {
        present = 0;
        presentPast63 = false;
        mark(s[LAST_TOKEN]);
        for (int e = 0; e < at.events; e++) {
            int r = at.row(e);
            if (s[r + OWNER] != 0) {
                mark(s[r + TOKEN]);
            }
            mark(s[r + VERSION]);
            if (s[r + EFFECTS] > 0 && s[r + PURGED] == 0) {
                mark(s[r + MARKER_TOKEN]);
            }
        }
        for (int p = 0; p < at.pollers; p++) {
            int b = at.poller(p);
            for (int k = 0; k < s[b + HELD]; k++) {
                mark(s[at.heldToken(b, k)]);
            }
        }
        if (presentPast63) {
            renumberSorted(s);
            return;
        }
        if (present == (1L << Long.bitCount(present) + 1) - 2) {
            return; // already 1..n
        }
        rankSlot(s, LAST_TOKEN);
        for (int e = 0; e < at.events; e++) {
            int r = at.row(e);
            rankSlot(s, r + TOKEN);
            rankSlot(s, r + VERSION);
            rankSlot(s, r + MARKER_TOKEN);
        }
        for (int p = 0; p < at.pollers; p++) {
            int b = at.poller(p);
            for (int k = 0; k < s[b + HELD]; k++) {
                rankSlot(s, at.heldToken(b, k));
            }
        }
    }

    private long present; // the positive tokens below 64 that renumber found, a bit each
    private boolean presentPast63;

    private void mark(int token) {
        if (token > 63) {
            presentPast63 = true;
        } else if (token > 0) {
            present |= 1L << token;
        }
    }

    /** Replaces a positive token in {@code slot} by the number of tokens present up to it. */
    private void rankSlot(int[] s, int slot) {
        int token = s[slot];
        if (token > 0) {
            int rank = Long.bitCount(present & (2L << token) - 1);
            if (rank != token) {
                set(s, slot, rank);
            }
        }
    }

    /** {@link #renumber} where a token passed 63: the distinct tokens sorted, each replaced by its place among them. */
    private void renumberSorted(int[] s) {
        int n = 0;
        n = rankIn(s[LAST_TOKEN], n);
        for (int e = 0; e < at.events; e++) {
            int r = at.row(e);
            if (s[r + OWNER] != 0) {
                n = rankIn(s[r + TOKEN], n);
            }
            n = rankIn(s[r + VERSION], n);
            if (s[r + EFFECTS] > 0 && s[r + PURGED] == 0) {
                n = rankIn(s[r + MARKER_TOKEN], n);
            }
        }
        for (int p = 0; p < at.pollers; p++) {
            int b = at.poller(p);
            for (int k = 0; k < s[b + HELD]; k++) {
                n = rankIn(s[at.heldToken(b, k)], n);
            }
        }
        renumberSlot(s, LAST_TOKEN, n);
        for (int e = 0; e < at.events; e++) {
            int r = at.row(e);
            renumberSlot(s, r + TOKEN, n);
            renumberSlot(s, r + VERSION, n);
            renumberSlot(s, r + MARKER_TOKEN, n);
        }
        for (int p = 0; p < at.pollers; p++) {
            int b = at.poller(p);
            for (int k = 0; k < s[b + HELD]; k++) {
                renumberSlot(s, at.heldToken(b, k), n);
            }
        }
    }

    /** Adds a positive token to the sorted distinct {@link #ranked}, of which there are {@code n}; returns how many now. */
    private int rankIn(int token, int n) {
        if (token <= 0) {
            return n;
        }
        int i = n;
        while (i > 0 && ranked[i - 1] > token) {
            i--;
        }
        if (i > 0 && ranked[i - 1] == token) {
            return n;
        }
        System.arraycopy(ranked, i, ranked, i + 1, n - i);
        ranked[i] = token;
        return n + 1;
    }

    /** Replaces a positive token in {@code slot} by its rank among the first {@code n} of {@link #ranked}. */
    private void renumberSlot(int[] s, int slot, int n) {
        int token = s[slot];
        if (token <= 0) {
            return;
        }
        int rank = Arrays.binarySearch(ranked, 0, n, token) + 1;
        if (rank > 0 && rank != token) {
            set(s, slot, rank);
        }
    }

    /** A healing run's step: {@link #step}, for the agreement probe to follow a healing run step by step. */
    int healingStep(int[] s, int step) {
        int result = step(s, step);
        if (renumbers && breaks(result) == Successors.NONE) {
            renumber(s);
        }
        return result;
    }

    /** Applies an enabled step to {@code s} in place, without a journal; returns what it broke and showed. */
    private int step(int[] s, int step) {
        boolean listed = claimsValid && s == claimsOf;
        claimsValid = false; // the step changes the state the claims were found in
        int result = stepOnly(s, step, listed);
        if (scenario.cleanup() && (result & 3) != Successors.BREAKS_STATE && lostDeletedRow(s)) {
            return breakingState(result); // NO_LOST_EVENT: no poller holds a row deleted before its effect
        }
        return result;
    }

    private int stepOnly(int[] s, int step, boolean listed) {
        int p = step & 15;
        int b = at.poller(Math.min(p, at.pollers - 1));
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
                return claim(s, p, b, listed);
            case DELIVER:
                return table != null && shapes.deliversAndAcks() ? deliverAndAck(s, p, b) : deliver(s, b);
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
            case RENEW:
                return renew(s, p, b);
            case PURGE: // the marker goes, the effect stays, and the event is known as purged by policy
                set(s, at.row(p) + PURGED, 1);
                set(s, at.row(p) + MARKER_AT, 0);
                if (s[at.row(p) + MARKER_TOKEN] != 0) {
                    set(s, at.row(p) + MARKER_TOKEN, 0);
                }
                return 0;
            case CLEANUP:
                return cleanup(s);
            case SKEW:
                set(s, at.skew(s[SKEWS]), p);
                set(s, SKEWS, s[SKEWS] + 1);
                return p == at.maxSkew ? 0 : SKEWED;
            case BEGIN:
                set(s, at.row(s[PRODUCED]) + IN_FLIGHT, 1);
                set(s, PRODUCED, s[PRODUCED] + 1);
                return 0;
            case COMMIT:
                return commit(s, p);
            default:
                throw new IllegalArgumentException("unknown step " + step);
        }
    }

    /**
     * The rows a cursor relay's cursor lets it see, as a bit mask (every row for a relay that claims by status): one
     * that waits for open producer transactions sees only rows below the cursor or below the lowest still open. A
     * row committed below the cursor (passed over) breaks a state invariant at its commit, so no stored state has one.
     */
    private int admitted(int[] s) {
        int all = (int) ((1L << at.events) - 1);
        if (!keepsCursor || shapes.cursor() != CursorRule.WAITS_FOR_IN_FLIGHT) {
            return all;
        }
        int lowestOpen = at.events;
        for (int e = 0; e < at.events && lowestOpen == at.events; e++) {
            lowestOpen = s[at.row(e) + IN_FLIGHT] != 0 ? e : lowestOpen;
        }
        int below = Math.max(s[CURSOR], lowestOpen); // seq <= cursor, or seq < the lowest open one's
        return all & (int) ((1L << below) - 1);
    }

    /** Fills {@link #claimable} with the rows of {@code mask}, in outbox order; returns how many. */
    private int rowsOf(int mask) {
        int n = 0;
        for (; mask != 0; mask &= mask - 1) {
            claimable[n++] = Integer.numberOfTrailingZeros(mask);
        }
        return n;
    }

    /** Fills {@link #claimable} with the rows a claim by poller {@code p} would take now, in outbox order; returns how many. */
    private int claimable(int[] s, int p) {
        int n = 0;
        if (table != null) {
            for (int mask = table.claimable(s, p, skewOf(s, p), admitted(s)); mask != 0; mask &= mask - 1) {
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

    private int claim(int[] s, int p, int b, boolean listed) {
        int n;
        if (s[b + PHASE] == CLAIMING) {
            n = s[b + READS];
            for (int k = 0; k < n; k++) {
                claimable[k] = s[at.read(b, k)];
                set(s, at.read(b, k), 0);
            }
            set(s, b + READS, 0);
        } else {
            n = listed ? rowsOf(claimMasks[p]) : claimable(s, p);
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
        int granted = 0;
        int highest = 0;
        for (int k = 0; k < n; k++) {
            int e = claimable[k];
            int r = at.row(e);
            highest = Math.max(highest, e + 1);
            if (s[r + STATUS] == ABSENT) {
                continue; // the cleanup deleted it after a check-then-act claim read it: the write matches no row
            }
            boolean hadLease = s[r + OWNER] != 0;
            if (liveLease(s, r) && heldByAnother(s, p, e, s[r + TOKEN])) {
                result |= Successors.BREAKS_TRANSITION; // replaced a live lease its holder still holds: SINGLE_LIVE_LEASE
            }
            if (hadLease) {
                result |= RECLAIMED;
            }
            int token = table != null ? table.token(s, e, p)
                    : logic == PackedLogic.RECLAIM_KEEPS_TOKEN && hadLease ? s[r + TOKEN] : s[LAST_TOKEN] + 1;
            if (shapes.perRowVersion()) {
                if (token <= s[r + VERSION]) {
                    result |= Successors.BREAKS_TRANSITION; // an old owner's version still matches: STALE_ACK_REJECTED
                }
            } else if (token <= floor) {
                result |= Successors.BREAKS_TRANSITION; // an old owner's token still matches: STALE_ACK_REJECTED
            }
            floor = Math.max(floor, token);
            set(s, r + OWNER, ownerCode[p]);
            set(s, r + TOKEN, token);
            int expiry = table != null ? table.expiry(now, skewOf(s, p))
                    : logic == PackedLogic.LEASE_NEVER_EXPIRES ? NEVER : now + scenario.leaseTicks();
            set(s, r + EXPIRY, expiry);
            if (at.maxSkew > 0) { // else the slot is always 0
                set(s, r + LEASE_CLOCK, expiryClock(now, skewOf(s, p), expiry) + at.maxSkew);
            }
            if (shapes.perRowVersion()) {
                set(s, r + VERSION, token); // the claim writes the row's new version; the global counter stays 0
            } else {
                set(s, LAST_TOKEN, Math.max(s[LAST_TOKEN], token));
            }
            set(s, at.heldEvent(b, granted), e);
            set(s, at.heldToken(b, granted), token);
            granted++;
        }
        if (keepsCursor && n > 0 && highest > s[CURSOR]) {
            set(s, CURSOR, highest); // the cursor moves to the highest sequence claimed
        }
        if (granted == 0) { // a check-then-act write whose rows the cleanup deleted in between: idle again
            set(s, b + PHASE, IDLE);
            return result;
        }
        set(s, b + PHASE, firstPhase);
        set(s, b + HELD, granted);
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

    /** Whether some poller holds event {@code e} in its batch, under any token. */
    private boolean held(int[] s, int e) {
        for (int q = 0; q < at.pollers; q++) {
            int b = at.poller(q);
            for (int k = 0; k < s[b + HELD]; k++) {
                if (s[at.heldEvent(b, k)] == e) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a row the cleanup deleted before its effect was applied is held by no poller: the event is lost. */
    private boolean lostDeletedRow(int[] s) {
        for (int e = 0; e < at.events; e++) {
            int r = at.row(e);
            if (s[r + DELETED] != 0 && s[r + EFFECTS] == 0 && !held(s, e)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The consumer transaction for the head of the batch: DUPLICATE where its key is found among the markers, else
     * the effect and its marker (dated, where markers are); and the poller goes on to its ack.
     */
    private int deliver(int[] s, int b) {
        int e = s[at.heldEvent(b, 0)];
        int token = s[at.heldToken(b, 0)];
        int r = at.row(e);
        int key = table == null ? 0 : table.keyId(e, token); // the readable consumer asks it first
        if (shapes.checksMarker() && (table == null ? hasMarkerKey(s, e, token) : holdsMarkerKey(s, e, key))) {
            afterDelivery(s, b);
            return DUPLICATE | (lateRedelivery && markerAge(s, e) > grantedLease ? LATE_REDELIVERY : 0);
        }
        if (shapes.consumer() == ConsumerShape.MARKER_THEN_EFFECT && s[r + EFFECTS] > 0) {
            // a second marker for an applied event breaks nothing yet, and a row holds one marker
            throw new Overflow("a second marker for applied event " + scenario.events().get(e).id());
        }
        if (shapes.consumer() != ConsumerShape.ONE_TRANSACTION) {
            // one of marker and effect commits alone (MARKER_IFF_EFFECT), or the effect a second time
            return Successors.BREAKS_STATE;
        }
        if (s[r + EFFECTS] > 0 || appliedLaterOfAggregate(s, e)) {
            return Successors.BREAKS_STATE; // EFFECT_AT_MOST_ONCE, or AGGREGATE_ORDER
        }
        if (table != null && !shapes.checksMarker() && holdsMarkerKey(s, e, key)) {
            return Successors.BREAKS_STATE; // the marker takes another event's key: that one loses its marker
        }
        set(s, r + EFFECTS, 1);
        if (logic == PackedLogic.NEW_ID_ON_RETRY || table != null && table.shared.keyedByToken[e]) {
            set(s, r + MARKER_TOKEN, token);
        }
        if (dates) {
            set(s, r + MARKER_AT, s[CLOCK] + 1);
        }
        afterDelivery(s, b);
        return 0;
    }

    /** Ticks since event {@code e}'s dated marker was written, or -1 where it has none. */
    private int markerAge(int[] s, int e) {
        int r = at.row(e);
        return s[r + MARKER_AT] > 0 && s[r + PURGED] == 0 ? s[CLOCK] - (s[r + MARKER_AT] - 1) : -1;
    }

    /**
     * Delivery and ack in one transaction: where the logic accepts the ack, the consumer transaction and the row's
     * DELIVERED commit together (APPLIED or DUPLICATE); else nothing changes (STALE). The poller goes on either way.
     */
    private int deliverAndAck(int[] s, int p, int b) {
        int e = s[at.heldEvent(b, 0)];
        int token = s[at.heldToken(b, 0)];
        int r = at.row(e);
        if (s[r + STATUS] == ABSENT || !table.acceptsAck(s, e, token, p)) {
            advance(s, b);
            return STALE;
        }
        int key = table.keyId(e, token);
        int result = 0;
        if (shapes.checksMarker() && holdsMarkerKey(s, e, key)) {
            result = DUPLICATE;
        } else if (s[r + EFFECTS] > 0 || appliedLaterOfAggregate(s, e) || !shapes.checksMarker() && holdsMarkerKey(s, e, key)) {
            return Successors.BREAKS_STATE; // EFFECT_AT_MOST_ONCE, AGGREGATE_ORDER, or a marker taking another's key
        } else {
            set(s, r + EFFECTS, 1);
            if (table.shared.keyedByToken[e]) {
                set(s, r + MARKER_TOKEN, token);
            }
        }
        if (!(s[r + OWNER] != 0 && s[r + TOKEN] == token) && rowChangesWhenDelivered(s, r)) {
            result = breakingTransition(result); // a stale token moved the row: STALE_ACK_REJECTED
        }
        delivered(s, r);
        if (s[r + EFFECTS] == 0) {
            return breakingState(result); // DELIVERED without its effect (a marker of another event answered): NO_LOST_EVENT
        }
        advance(s, b);
        return result;
    }

    /** Whether marking event row {@code r} DELIVERED (no lease, no version) changes it. */
    private static boolean rowChangesWhenDelivered(int[] s, int r) {
        return s[r + STATUS] != DELIVERED || s[r + OWNER] != 0 || s[r + VERSION] != 0;
    }

    /** Marks event row {@code r} DELIVERED: the lease goes, and a per-row version with it (nothing fences it any more). */
    private void delivered(int[] s, int r) {
        set(s, r + STATUS, DELIVERED);
        clearLease(s, r);
        if (s[r + VERSION] != 0) {
            set(s, r + VERSION, 0);
        }
    }

    /**
     * Whether the consumer holds a marker under key {@code key} (a {@link LogicTable.Shared#keyId}), the key of a
     * delivery of event {@code e}.
     */
    private boolean holdsMarkerKey(int[] s, int e, int key) {
        if (table.shared.distinctKeys) { // each event has a key of its own: only its own marker can hold it
            int r = at.row(e);
            return s[r + EFFECTS] > 0 && s[r + PURGED] == 0;
        }
        for (int o = 0; o < at.events; o++) {
            int r = at.row(o);
            if (s[r + EFFECTS] > 0 && s[r + PURGED] == 0 && table.markerKeyId(o, s[r + MARKER_TOKEN]) == key) {
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
        boolean accepted = table != null ? s[r + STATUS] != ABSENT && table.acceptsAck(s, e, token, p)
                : pending && (tokenMatches || logic == PackedLogic.ACK_IGNORES_TOKEN);
        int result;
        if (accepted) {
            // the logic names the other rows its ack marks from the outbox as it stands before the ack
            int others = table != null && shapes.acksTouchOthers() ? table.rowsAckTouches(s, e, token, p, b) : 0;
            result = tokenMatches || !rowChangesWhenDelivered(s, r) ? 0 : Successors.BREAKS_TRANSITION; // STALE_ACK_REJECTED
            delivered(s, r);
            if (s[r + EFFECTS] == 0) {
                result = Successors.BREAKS_STATE; // DELIVERED without its effect: NO_LOST_EVENT
            }
            if (table != null) {
                result = ackedMore(s, others, b, result);
            }
        } else {
            result = unmatched(s, r, token, UNMATCHED_ACK);
        }
        if (shapes.acksFirst()) {
            set(s, b + PHASE, TO_DELIVER);
        } else {
            advance(s, b);
        }
        return result;
    }

    /**
     * After an accepted ack of the head of the batch: the other rows the logic's ack names ({@code others}) that are PENDING are
     * DELIVERED too ({@link dev.relaycheck.model.RelayLogic#rowsAckTouches}), each without its effect breaking
     * NO_LOST_EVENT; ACK_MID_BATCH where it marked any, or, where the scenario asks, where rows of the batch are left.
     */
    private int ackedMore(int[] s, int others, int b, int result) {
        boolean also = false;
        for (int mask = others; mask != 0; mask &= mask - 1) {
            int r = at.row(Integer.numberOfTrailingZeros(mask));
            if (s[r + STATUS] == PENDING) {
                delivered(s, r);
                also = true;
                if (s[r + EFFECTS] == 0) {
                    result = breakingState(result);
                }
            }
        }
        return also || midBatch && s[b + HELD] > 1 ? result | MID_BATCH : result;
    }

    /**
     * An ack or release that matched no row: a poller that does not read the result and unlocks after settling
     * clears the row's lease by id (a stale token changing the row: STALE_ACK_REJECTED); STALE, and, where the
     * scenario asks, which of the two matched nothing.
     */
    private int unmatched(int[] s, int r, int token, int what) {
        if (table != null && shapes.unlocksUnread() && s[r + STATUS] != ABSENT && s[r + OWNER] != 0) {
            int result = STALE | what | (s[r + TOKEN] != token ? Successors.BREAKS_TRANSITION : 0);
            clearLease(s, r);
            return result;
        }
        return unmatched ? STALE | what : STALE;
    }

    private int release(int[] s, int p, int b) {
        int e = s[at.heldEvent(b, 0)];
        int token = s[at.heldToken(b, 0)];
        int r = at.row(e);
        boolean pending = s[r + STATUS] == PENDING;
        boolean leased = s[r + OWNER] != 0;
        boolean tokenMatches = leased && s[r + TOKEN] == token;
        boolean accepted = table != null ? s[r + STATUS] != ABSENT && table.acceptsRelease(s, e, token, p)
                : pending && (tokenMatches || logic == PackedLogic.RELEASE_IGNORES_TOKEN);
        int result;
        if (accepted) {
            // freeing a lease the token does not match breaks STALE_ACK_REJECTED; an absent lease changes nothing,
            // unless the release writes a per-row version
            result = RETRIED | (!tokenMatches && (leased || shapes.perRowVersion()) ? Successors.BREAKS_TRANSITION : 0);
            clearLease(s, r);
            if (shapes.perRowVersion()) {
                set(s, r + VERSION, s[r + VERSION] + 1); // a release is a fenced write: it moves the version on
            }
        } else {
            result = unmatched(s, r, token, UNMATCHED_RELEASE);
        }
        advance(s, b);
        return result;
    }

    /**
     * A lease renewal: accepted, the row's lease lasts to a new expiry (a row without a lease gets the renewer's);
     * refused, the poller knows it lost the lease and gives up its batch. Extending a lease other than the
     * renewer's own while its holder still holds it breaks SINGLE_LIVE_LEASE.
     */
    private int renew(int[] s, int p, int b) {
        int e = s[at.heldEvent(b, 0)];
        int token = s[at.heldToken(b, 0)];
        int r = at.row(e);
        set(s, RENEWALS, s[RENEWALS] + 1);
        if (s[r + STATUS] == ABSENT || !table.acceptsRenewal(s, e, token, p)) {
            idle(s, b);
            return RENEWAL_REFUSED;
        }
        int result = RENEWED;
        boolean leased = s[r + OWNER] != 0;
        if (leased && s[r + TOKEN] != token && heldByAnother(s, p, e, s[r + TOKEN])) {
            result |= Successors.BREAKS_TRANSITION;
        }
        int expiry = table.expiry(s[CLOCK], skewOf(s, p));
        if (!leased) {
            set(s, r + OWNER, ownerCode[p]);
            set(s, r + TOKEN, token);
        }
        set(s, r + EXPIRY, expiry);
        if (at.maxSkew > 0) {
            set(s, r + LEASE_CLOCK, expiryClock(s[CLOCK], skewOf(s, p), expiry) + at.maxSkew);
        }
        return result;
    }

    /**
     * The clock an expiry written by a poller whose clock is off by {@code skew} is on, as its offset from the
     * database's (RelayTransactions.expiryClockSkew): the writer's skew where the logic's answer depends on the
     * poller's clock, else 0. The re-implemented logics write expiry on the database's clock.
     */
    private int expiryClock(int now, int skew, int expiry) {
        return skew == 0 || expiry == NEVER || table == null || table.expiry(now, 0) == expiry ? 0 : skew;
    }

    /** Whether row {@code r} holds a lease live now, judged on the clock its expiry was written on. */
    private boolean liveLease(int[] s, int r) {
        return s[r + OWNER] != 0 && (s[r + EXPIRY] == NEVER || s[CLOCK] + at.leaseClock(s, r) < s[r + EXPIRY]);
    }

    /** The outbox cleanup: deletes the rows the logic's purge takes, each kept as it was (but its token). */
    private int cleanup(int[] s) {
        int result = 0;
        for (int mask = cleanupTakes(s); mask != 0; mask &= mask - 1) {
            int r = at.row(Integer.numberOfTrailingZeros(mask));
            if (s[r + STATUS] == DELIVERED) {
                result = CLEANED_UP;
            }
            set(s, r + DELETED, s[r + STATUS] == DELIVERED ? DELETED_DELIVERED : DELETED_PENDING);
            set(s, r + STATUS, ABSENT);
            if (s[r + TOKEN] != 0) {
                set(s, r + TOKEN, 0);
            }
            if (s[r + VERSION] != 0) {
                set(s, r + VERSION, 0);
            }
        }
        return result;
    }

    /**
     * An overlapping producer's commit of event {@code e}: its business write and row become visible; LATE_COMMIT if a
     * row with a later sequence is visible already. A cursor relay whose cursor passed its sequence never reads it: a
     * lost event (NO_LOST_EVENT), at once.
     */
    private int commit(int[] s, int e) {
        boolean late = false;
        for (int o = e + 1; o < at.events; o++) {
            late |= s[at.row(o) + STATUS] != ABSENT;
        }
        if (shapes.cursor() != CursorRule.NONE && e < s[CURSOR]) {
            return breakingState(late ? LATE_COMMIT : 0);
        }
        set(s, at.row(e) + IN_FLIGHT, 0);
        set(s, at.row(e) + STATUS, PENDING);
        return late ? LATE_COMMIT : 0;
    }

    private void clearLease(int[] s, int r) {
        set(s, r + OWNER, 0);
        set(s, r + TOKEN, 0);
        set(s, r + EXPIRY, 0);
        if (s[r + LEASE_CLOCK] != 0) {
            set(s, r + LEASE_CLOCK, 0);
        }
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

    /**
     * {@code Invariants.isComplete}: the producer is done and every event whose business write committed is
     * settled (DELIVERED, or deleted by the cleanup) with its effect applied once.
     */
    boolean complete(int[] s) {
        if (s[PRODUCED] < at.events) {
            return false;
        }
        for (int e = 0; e < at.events; e++) {
            int r = at.row(e);
            if (s[r + IN_FLIGHT] != 0) {
                return false;
            }
            boolean settled = s[r + STATUS] == DELIVERED || s[r + STATUS] == ABSENT && s[r + DELETED] != 0;
            boolean business = s[r + STATUS] != ABSENT || s[r + DELETED] != 0;
            if (business && (!settled || s[r + EFFECTS] != 1)) {
                return false;
            }
        }
        return true;
    }

    /** Every permutation of the pollers, in lexicographic order, as {@link #movePollers} takes them. */
    private int[][] permutations;

    private int[][] permutations() {
        if (permutations == null) {
            List<int[]> all = new ArrayList<>();
            permutations(new int[at.pollers], 0, 0, all);
            permutations = all.toArray(int[][]::new);
        }
        return permutations;
    }

    private void permutations(int[] perm, int k, int used, List<int[]> out) {
        if (k == perm.length) {
            out.add(perm.clone());
            return;
        }
        for (int p = 0; p < perm.length; p++) {
            if ((used >>> p & 1) == 0) {
                perm[k] = p;
                permutations(perm, k + 1, used | 1 << p, out);
            }
        }
    }

    /**
     * Whether permutation {@code perm} of the canonical state {@code c} makes a member of its orbit that no earlier
     * permutation (in lexicographic order) made: pollers alike in everything sit side by side in canonical order, and
     * only the permutations that keep each such pair in its order make distinct members.
     */
    private boolean firstOfItsMember(int[] c, int[] perm) {
        for (int k = 1; k < at.pollers; k++) {
            if (perm[k - 1] > perm[k] && alike(c, k - 1, k)) {
                return false;
            }
        }
        return true;
    }

    /** Whether pollers p and q of {@code c} have equal slots and own no row (so they are alike in everything). */
    private boolean alike(int[] c, int p, int q) {
        for (int e = 0; e < at.events; e++) {
            int o = c[at.row(e) + OWNER];
            if (o == p + 1 || o == q + 1) {
                return false;
            }
        }
        int bp = at.poller(p);
        int bq = at.poller(q);
        for (int i = 0; i < at.pollerSlots(); i++) {
            if (c[bp + i] != c[bq + i]) {
                return false;
            }
        }
        return true;
    }

    /** The permutations of the pollers of canonical state {@code c} that make the distinct members of its orbit. */
    List<int[]> orbit(int[] c) {
        List<int[]> out = new ArrayList<>();
        for (int[] perm : permutations()) {
            if (firstOfItsMember(c, perm)) {
                out.add(perm);
            }
        }
        return out;
    }

    /**
     * How the first member of the orbit of canonical state {@code c} (in {@link #orbit}'s order) that fails healing
     * fails ({@link #healing}'s kinds), or {@link StateSpace#HEALS} where every member heals; {@link #failingMember}
     * then holds the permutation that makes it. Round-robin healing schedules pollers in scenario order, so one
     * member's verdict does not stand for another's, and each is healed as the full search would heal it.
     */
    int orbitHealing(int[] c) {
        for (int[] perm : permutations()) {
            if (firstOfItsMember(c, perm)) {
                System.arraycopy(c, 0, member, 0, c.length);
                movePollers(member, perm);
                int kind = healing(member);
                if (kind != HealingOutcome.HEALS) {
                    failingMember = perm;
                    return kind;
                }
            }
        }
        failingMember = null;
        return HealingOutcome.HEALS;
    }

    /** The permutation of the member whose healing the last {@link #orbitHealing} found failing, or null. */
    int[] firstMemberFailingHealing(int[] c) {
        return orbitHealing(c) == HealingOutcome.HEALS ? null : failingMember;
    }

    private int[] failingMember;
    private int[] member;

    /**
     * {@link Healing#run}: round-robin over the fair steps, ticking when none is enabled, until complete. Memoised
     * ({@link HealingMemo}) where the turn's period is small: from a state and a turn, the rest of the run is fixed.
     */
    boolean healingFails(int[] from) {
        return healing(from) != HealingOutcome.HEALS;
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
        int visited = 0;
        boolean fails = false;
        int taken = 0;
        hashing = memo != null;
        if (hashing) {
            healingHash = HealingMemo.hash(s);
        }
        try {
            for (; taken < bound && !complete(s); taken++) {
                if (memo != null && taken % HealingMemo.EVERY == 0) {
                    long key = memo.key(healingHash, turn);
                    int known = memo.verdict(key, bound - taken);
                    if (known != HealingMemo.UNKNOWN) {
                        memo.hit();
                        return known;
                    }
                    memo.visit(visited++, key, taken);
                }
                int n = enabled(s, healingSteps, true);
                int step = n == 0 ? TICK << 4 : healingSteps[turn++ % n];
                if (breaks(step(s, step)) != Successors.NONE) {
                    fails = true;
                    break;
                }
                if (renumbers) {
                    renumber(s);
                }
            }
        } finally {
            hashing = false;
        }
        boolean completed = !fails && complete(s);
        if (memo != null) {
            memo.remember(visited, completed ? HealingMemo.HEALS : fails ? HealingMemo.BREAKS : HealingMemo.RUNS_ON, taken);
        }
        return completed ? HealingOutcome.HEALS : fails ? HealingOutcome.BREAKS_WHILE_HEALING : HealingOutcome.NEVER_COMPLETES;
    }

    private HealingMemo memo;
    private boolean hashing; // during a memoised healing run: each write moves healingHash
    private long healingHash;

    /** Steps a healing run may take before the state must be complete ({@link Healing#bound}). */
    int healingBound() {
        return healingBound;
    }

    /** This model with its healing runs memoised in {@code memo} (one a worker), or not (null). */
    PackedModel memoisingHealing(HealingMemo memo) {
        this.memo = memo;
        return this;
    }

    /**
     * Most fair steps a state can enable: the producer's, each poller's step and renewal, each purge, the cleanup. The
     * turn of a healing run picks among them by its remainder, so the run from a state is fixed by the turn modulo
     * the least common multiple of 1 to this.
     */
    int mostFairSteps() {
        return (scenario.producersOverlap() ? 1 + at.events : 1) + at.pollers * (scenario.maxRenewals() > 0 ? 2 : 1)
                + (shapes.retention() >= 0 ? at.events : 0) + (scenario.cleanup() ? 1 : 0);
    }
}
