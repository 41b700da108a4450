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
 * @param leaseTicks         lease length in ticks
 * @param maxTicks           the clock never passes this
 * @param maxCrashes         poller crashes allowed
 * @param maxLostAcks        lost acknowledgements allowed
 * @param maxDeliverFails    consumer rollbacks allowed
 * @param maxProduceFails    producer transaction failures allowed
 * @param producedDuringRun  false: the events are committed before the run starts; true: Produce steps commit them
 * @param requiredWitnesses  outcomes the scenario must reach for a check of it to count
 */
public record Scenario(String name,
                       String description,
                       List<String> pollers,
                       List<Event> events,
                       SortedMap<String, Integer> initialStock,
                       int batch,
                       int leaseTicks,
                       int maxTicks,
                       int maxCrashes,
                       int maxLostAcks,
                       int maxDeliverFails,
                       int maxProduceFails,
                       boolean producedDuringRun,
                       Set<Witness> requiredWitnesses) {

    /** Actor name of the producing service in steps and traces. */
    public static final String PRODUCER = "producer";

    public Scenario {
        Names.requireToken(name, "scenario name");
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
        if (batch < 1 || leaseTicks < 1 || maxTicks < 0 || maxCrashes < 0 || maxLostAcks < 0 || maxDeliverFails < 0
                || maxProduceFails < 0) {
            throw new IllegalArgumentException("scenario " + name + ": batch and lease must be >= 1, bounds >= 0");
        }
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

    /** Builder with small defaults: one poller, batch 1, lease 2 ticks, no faults, no ticks. */
    public static final class Builder {
        private final String name;
        private String description = "";
        private final List<String> pollers = new ArrayList<>();
        private final List<Event> events = new ArrayList<>();
        private final Map<String, Integer> stock = new LinkedHashMap<>();
        private int batch = 1;
        private int leaseTicks = 2;
        private int maxTicks;
        private int maxCrashes;
        private int maxLostAcks;
        private int maxDeliverFails;
        private int maxProduceFails;
        private boolean producedDuringRun;
        private final Set<Witness> witnesses = EnumSet.noneOf(Witness.class);

        private Builder(String name) {
            this.name = name;
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

        public Builder batch(int b) {
            this.batch = b;
            return this;
        }

        public Builder leaseTicks(int t) {
            this.leaseTicks = t;
            return this;
        }

        public Builder maxTicks(int t) {
            this.maxTicks = t;
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

        public Scenario build() {
            return new Scenario(name, description, pollers, events, Sorted.copy(stock), batch, leaseTicks, maxTicks,
                    maxCrashes, maxLostAcks, maxDeliverFails, maxProduceFails, producedDuringRun, witnesses);
        }
    }
}
