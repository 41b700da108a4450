package dev.relaycheck.model;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * A bounded world to explore: who polls, which events exist, the lease length and how many of each fault
 * may happen. Every bound keeps exploration finite.
 *
 * @param name               stable name, used on the command line and in replay records
 * @param description        one line for listings and reports
 * @param pollers            poller names, in scheduling order
 * @param events             events in commit (sequence) order
 * @param initialStock       stock per SKU before any effect
 * @param batch              rows a claim takes at most
 * @param leaseTicks         lease length in ticks, as the scenario asks the logic for it
 * @param tickBound          how far the clock may run: a fixed tick or ticks beyond the lease the logic grants
 *                           (see {@link #maxTicks(RelayLogic)})
 * @param maxCrashes         poller crashes allowed
 * @param maxLostAcks        lost acknowledgements allowed
 * @param maxDeliverFails    consumer rollbacks allowed
 * @param maxProduceFails    producer transaction failures allowed
 * @param producedDuringRun  false: the events are committed before the run starts; true: Produce steps commit them
 * @param requiredWitnesses  outcomes the scenario must reach for a check of it to count
 * @param hazardBounds       bounds of renewals, clock skew and overlapping producers, and how the
 *                           pollers' instance ids are given out;
 *                           {@link HazardBounds#NONE} for none of them
 */
public record Scenario(String name,
                       String description,
                       List<String> pollers,
                       List<Event> events,
                       SortedMap<String, Integer> initialStock,
                       int batch,
                       int leaseTicks,
                       TickBound tickBound,
                       int maxCrashes,
                       int maxLostAcks,
                       int maxDeliverFails,
                       int maxProduceFails,
                       boolean producedDuringRun,
                       Set<Witness> requiredWitnesses,
                       HazardBounds hazardBounds) {

    /**
     * Bounds of the lease, settle and timing hazards, each off by default.
     *
     * @param maxRenewals      lease renewals (heartbeats) the pollers may make in all; 0: pollers never renew
     * @param maxSkew          each poller's clock reads the database's plus a skew in [-maxSkew, maxSkew], chosen
     *                         by the search as the first steps of every schedule; 0: every clock is the database's
     * @param producersOverlap the producer's transactions overlap: each event's sequence is allocated when its
     *                         transaction begins and its row becomes visible when it commits, in any order
     *                         (needs {@code producedDuringRun})
     * @param instanceIds      whether two pollers may present one instance id ({@link InstanceIds})
     * @param cleanup          the outbox cleanup job runs between the relay's transactions, whenever it would
     *                         delete a row ({@link Step.Cleanup}); false: outbox rows are never deleted
     */
    public record HazardBounds(int maxRenewals, int maxSkew, boolean producersOverlap, InstanceIds instanceIds,
                               boolean cleanup) {
        public static final HazardBounds NONE = new HazardBounds(0, 0, false);

        public HazardBounds {
            if (maxRenewals < 0 || maxSkew < 0) {
                throw new IllegalArgumentException("renewals and max-skew must be >= 0");
            }
            java.util.Objects.requireNonNull(instanceIds, "instanceIds");
        }

        /** Bounds with every poller's instance id its own ({@link InstanceIds#UNIQUE}) and no outbox cleanup. */
        public HazardBounds(int maxRenewals, int maxSkew, boolean producersOverlap) {
            this(maxRenewals, maxSkew, producersOverlap, InstanceIds.UNIQUE, false);
        }

        public boolean isNone() {
            return equals(NONE);
        }
    }

    /**
     * The instance id each poller writes as a lease's owner and is known by to every decision (the {@code poller}
     * argument): the name a relay gives its process or thread ({@code locked_by}, {@code owner}). A relay that
     * fences or re-claims by owner is safe only while no two live workers present one id; this dimension says
     * whether they do.
     */
    public enum InstanceIds {
        /** Every poller presents its own name. */
        UNIQUE("unique", "every poller has an instance id of its own"),
        /** Every poller presents {@link #SHARED_ID}: one node's workers, known by the node's name. */
        SHARED("shared", "the pollers are one node's workers and share its instance id " + InstanceIds.SHARED_ID),
        /**
         * The last poller presents the first poller's name: a restart of the first under its instance id, while the
         * first, presumed dead (stalled, cut off), still runs.
         */
        REUSED("reused", "the last poller is a restart of the first under the first's instance id, while the first, "
                + "presumed dead, still runs");

        /** The instance id every poller presents under {@link #SHARED}. */
        public static final String SHARED_ID = "node-1";

        private final String text;
        private final String meaning;

        InstanceIds(String text, String meaning) {
            this.text = text;
            this.meaning = meaning;
        }

        /** The word in scenario files and on the command line. */
        public String text() {
            return text;
        }

        /** What it means, in a sentence's words. */
        public String meaning() {
            return meaning;
        }

        public static InstanceIds parse(String text) {
            for (InstanceIds i : values()) {
                if (i.text.equalsIgnoreCase(text.strip())) {
                    return i;
                }
            }
            throw new IllegalArgumentException("'" + text + "' is none of unique, shared, reused");
        }
    }

    /** How the pollers' instance ids are given out ({@link InstanceIds#UNIQUE} unless the scenario says otherwise). */
    public InstanceIds instanceIds() {
        return hazardBounds.instanceIds();
    }

    /** The instance id poller {@code poller} presents: its lease's owner and the poller every decision is told of. */
    public String instanceId(String poller) {
        return switch (hazardBounds.instanceIds()) {
            case UNIQUE -> poller;
            case SHARED -> InstanceIds.SHARED_ID;
            case REUSED -> poller.equals(pollers.get(pollers.size() - 1)) ? pollers.get(0) : poller;
        };
    }

    /**
     * The other pollers that present the same instance id as {@code poller}, in scenario order (none with unique
     * ids): the workers an owner name cannot tell it from.
     */
    public List<String> sharingInstanceId(String poller) {
        String id = instanceId(poller);
        return pollers.stream().filter(p -> !p.equals(poller) && instanceId(p).equals(id)).toList();
    }

    /** A scenario without renewals, skew or overlapping producers ({@link HazardBounds#NONE}). */
    public Scenario(String name, String description, List<String> pollers, List<Event> events,
                    SortedMap<String, Integer> initialStock, int batch, int leaseTicks, TickBound tickBound,
                    int maxCrashes, int maxLostAcks, int maxDeliverFails, int maxProduceFails, boolean producedDuringRun,
                    Set<Witness> requiredWitnesses) {
        this(name, description, pollers, events, initialStock, batch, leaseTicks, tickBound, maxCrashes, maxLostAcks,
                maxDeliverFails, maxProduceFails, producedDuringRun, requiredWitnesses, HazardBounds.NONE);
    }

    /** Lease renewals the pollers may make in all. */
    public int maxRenewals() {
        return hazardBounds.maxRenewals();
    }

    /** The largest clock skew a poller may have, in ticks either way. */
    public int maxSkew() {
        return hazardBounds.maxSkew();
    }

    /** Whether the producer's transactions overlap (sequence allocated at begin, row visible at commit). */
    public boolean producersOverlap() {
        return hazardBounds.producersOverlap();
    }

    /** Whether the outbox cleanup job runs in this world. */
    public boolean cleanup() {
        return hazardBounds.cleanup();
    }

    /** Actor name of the producing service in steps and traces. */
    public static final String PRODUCER = "producer";

    /**
     * A logic granting a longer lease than this (or one that never expires) sizes the clock by the scenario's
     * own lease instead: a clock of thousands of ticks would make no search end.
     */
    public static final int LONGEST_GRANTED_LEASE = 100;

    public Scenario {
        requireName(name);
        java.util.Objects.requireNonNull(tickBound, "tickBound");
        java.util.Objects.requireNonNull(hazardBounds, "hazardBounds");
        if (hazardBounds.producersOverlap() && (!producedDuringRun || maxProduceFails > 0)) {
            throw new IllegalArgumentException("scenario " + name + ": producers-overlap needs produced-during-run true "
                    + "and no produce-fails");
        }
        pollers = List.copyOf(pollers);
        events = List.copyOf(events);
        initialStock = Sorted.copy(initialStock);
        EnumSet<Witness> w = EnumSet.noneOf(Witness.class);
        w.addAll(requiredWitnesses);
        requiredWitnesses = java.util.Collections.unmodifiableSet(w); // enum order, never hash order
        if (pollers.isEmpty()) {
            throw new IllegalArgumentException("scenario " + name + ": needs at least one poller");
        }
        Set<String> seen = new HashSet<>();
        for (String p : pollers) {
            Names.requireToken(p, "poller name");
            if (p.equals(PRODUCER) || !seen.add(p)) {
                throw new IllegalArgumentException("scenario " + name + ": poller name '" + p + "' is reserved or repeated");
            }
        }
        Set<String> ids = new HashSet<>();
        int lastSeq = Integer.MIN_VALUE;
        for (Event e : events) {
            if (!ids.add(e.id())) {
                throw new IllegalArgumentException("scenario " + name + ": event id " + e.id() + " repeated");
            }
            if (e.seq() <= lastSeq) {
                throw new IllegalArgumentException("scenario " + name + ": events must be listed in increasing seq order");
            }
            lastSeq = e.seq();
            if (!initialStock.containsKey(e.aggregate())) {
                throw new IllegalArgumentException("scenario " + name + ": no initial stock for " + e.aggregate());
            }
        }
        if (batch < 1 || leaseTicks < 1 || maxCrashes < 0 || maxLostAcks < 0 || maxDeliverFails < 0
                || maxProduceFails < 0) {
            throw new IllegalArgumentException("scenario " + name + ": batch and lease must be >= 1, bounds >= 0");
        }
    }

    /**
     * Scenario names appear in file names and on command lines; besides what other names may hold they may
     * hold {@code +} and {@code =}, which name overridden fields ({@code mixed+lease=5}), but no {@code /}.
     */
    public static String requireName(String name) {
        if (name == null || !name.matches("[A-Za-z0-9_.+=-]+")) {
            throw new IllegalArgumentException("scenario name must be a non-empty name of letters, digits and _.+=- but was '"
                    + name + "'");
        }
        return name;
    }

    /**
     * The lease {@code logic} grants a claim at tick 0 in this scenario. A lease that never expires, or one
     * longer than {@link #LONGEST_GRANTED_LEASE}, counts as the scenario's own lease; a negative one as 0. A
     * logic that throws here is judged where a claim calls it, so here its lease is the scenario's.
     */
    public int grantedLease(RelayLogic logic) {
        int expiry;
        try {
            expiry = logic.leaseExpiry(0, leaseTicks, 0); // the form the model asks: a logic may override only it
        } catch (RuntimeException e) {
            return leaseTicks; // the search reports the throw at the claim that makes it, with its step
        }
        if (expiry == Lease.NEVER || expiry > LONGEST_GRANTED_LEASE) {
            return leaseTicks;
        }
        return Math.max(0, expiry);
    }

    /**
     * The clock bound a search of {@code logic} in this scenario uses: {@link #tickBound} resolved against
     * the lease the logic grants, so every lease a claim at tick 0 takes can expire whatever its length.
     * For the shipped logics (which grant exactly {@link #leaseTicks}) this is {@code tickBound.resolve(leaseTicks)}.
     */
    public int maxTicks(RelayLogic logic) {
        return tickBound.resolve(grantedLease(logic));
    }

    public int pollerIndex(String poller) {
        int i = pollers.indexOf(poller);
        if (i < 0) {
            throw new IllegalArgumentException("scenario " + name + " has no poller '" + poller + "'");
        }
        return i;
    }

    public Event event(String id) {
        for (Event e : events) {
            if (e.id().equals(id)) {
                return e;
            }
        }
        throw new IllegalArgumentException("scenario " + name + " has no event '" + id + "'");
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** A builder holding every field of this scenario, to build a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder(name).description(description).replacePollers(pollers).replaceEvents(events)
                .batch(batch).leaseTicks(leaseTicks).tickBound(tickBound).maxCrashes(maxCrashes).maxLostAcks(maxLostAcks)
                .maxDeliverFails(maxDeliverFails).maxProduceFails(maxProduceFails).producedDuringRun(producedDuringRun)
                .requires(requiredWitnesses.toArray(Witness[]::new)).maxRenewals(hazardBounds.maxRenewals())
                .maxSkew(hazardBounds.maxSkew()).producersOverlap(hazardBounds.producersOverlap())
                .instanceIds(hazardBounds.instanceIds()).cleanup(hazardBounds.cleanup());
        initialStock.forEach(b::stock);
        return b;
    }

    /** Builder with small defaults: one poller, batch 1, lease 2 ticks, no faults, no ticks (clock bound 0). */
    public static final class Builder {
        private String name;
        private String description = "";
        private final List<String> pollers = new ArrayList<>();
        private final List<Event> events = new ArrayList<>();
        private final Map<String, Integer> stock = new LinkedHashMap<>();
        private int batch = 1;
        private int leaseTicks = 2;
        private TickBound tickBound = TickBound.at(0);
        private int maxCrashes;
        private int maxLostAcks;
        private int maxDeliverFails;
        private int maxProduceFails;
        private boolean producedDuringRun;
        private final Set<Witness> witnesses = EnumSet.noneOf(Witness.class);
        private int maxRenewals;
        private int maxSkew;
        private boolean producersOverlap;
        private InstanceIds instanceIds = InstanceIds.UNIQUE;
        private boolean cleanup;

        private Builder(String name) {
            this.name = name;
        }

        public Builder name(String n) {
            this.name = n;
            return this;
        }

        /** Replaces the pollers (the builder's list is otherwise only added to). */
        public Builder replacePollers(List<String> names) {
            pollers.clear();
            pollers.addAll(names);
            return this;
        }

        /** Replaces the events, keeping each one's sequence number and payload. */
        public Builder replaceEvents(List<Event> es) {
            events.clear();
            events.addAll(es);
            return this;
        }

        public Builder description(String d) {
            this.description = d;
            return this;
        }

        public Builder pollers(String... names) {
            pollers.addAll(List.of(names));
            return this;
        }

        public Builder stock(String sku, int units) {
            stock.put(sku, units);
            return this;
        }

        /** Adds an event with the next sequence number. */
        public Builder event(String id, String sku, int quantity) {
            events.add(new Event(id, sku, events.size() + 1, quantity));
            return this;
        }

        /** Adds an event with the next sequence number and the payload given (two events may carry equal payloads). */
        public Builder event(String id, String sku, int quantity, String payload) {
            events.add(new Event(id, sku, events.size() + 1, quantity, payload));
            return this;
        }

        /** Adds an event as it is (its own sequence number and payload). */
        public Builder event(Event e) {
            events.add(e);
            return this;
        }

        public Builder batch(int b) {
            this.batch = b;
            return this;
        }

        public Builder leaseTicks(int t) {
            this.leaseTicks = t;
            return this;
        }

        /** The clock never passes tick {@code t}, whatever lease the logic grants. */
        public Builder maxTicks(int t) {
            this.tickBound = TickBound.at(t);
            return this;
        }

        /** The clock runs {@code k} ticks past the lease the logic under test grants. */
        public Builder ticksBeyondLease(int k) {
            this.tickBound = TickBound.beyondLease(k);
            return this;
        }

        public Builder tickBound(TickBound b) {
            this.tickBound = b;
            return this;
        }

        public Builder maxCrashes(int n) {
            this.maxCrashes = n;
            return this;
        }

        public Builder maxLostAcks(int n) {
            this.maxLostAcks = n;
            return this;
        }

        public Builder maxDeliverFails(int n) {
            this.maxDeliverFails = n;
            return this;
        }

        public Builder maxProduceFails(int n) {
            this.maxProduceFails = n;
            return this;
        }

        public Builder producedDuringRun(boolean b) {
            this.producedDuringRun = b;
            return this;
        }

        public Builder requires(Witness... w) {
            witnesses.addAll(List.of(w));
            return this;
        }

        /** Lease renewals (heartbeats) the pollers may make in all. */
        public Builder maxRenewals(int n) {
            this.maxRenewals = n;
            return this;
        }

        /** Each poller's clock is off from the database's by a skew in [-s, s], chosen by the search. */
        public Builder maxSkew(int s) {
            this.maxSkew = s;
            return this;
        }

        /** The producer's transactions overlap: sequences are allocated at begin, rows become visible at commit. */
        public Builder producersOverlap(boolean b) {
            this.producersOverlap = b;
            return this;
        }

        /** How the pollers' instance ids are given out ({@link InstanceIds}). */
        public Builder instanceIds(InstanceIds ids) {
            this.instanceIds = ids;
            return this;
        }

        /** The outbox cleanup job runs between the relay's transactions. */
        public Builder cleanup(boolean b) {
            this.cleanup = b;
            return this;
        }

        public Scenario build() {
            return new Scenario(name, description, pollers, events, Sorted.copy(stock), batch, leaseTicks, tickBound,
                    maxCrashes, maxLostAcks, maxDeliverFails, maxProduceFails, producedDuringRun, witnesses,
                    new HazardBounds(maxRenewals, maxSkew, producersOverlap, instanceIds, cleanup));
        }
    }
}
