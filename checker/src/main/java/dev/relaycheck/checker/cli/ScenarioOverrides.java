package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.TickBound;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Flags that change one field of every chosen scenario ({@code -s mixed --pollers 3 --lease 5}). Each one
 * also changes the scenario's name ({@code mixed+pollers=3+lease=5}), so no report or replay record passes
 * the changed scenario off as the shipped one.
 */
final class ScenarioOverrides {
    @Option(names = "--pollers", paramLabel = "N", description = "override: N pollers (the first N kept, more named p4, p5, ...)")
    Integer pollers;
    @Option(names = "--events", paramLabel = "N", description = "override: keep only the first N events")
    Integer events;
    @Option(names = "--batch", paramLabel = "N", description = "override: rows a claim takes at most")
    Integer batch;
    @Option(names = "--lease", paramLabel = "N", description = "override: the lease the scenario asks for, in ticks")
    Integer lease;
    @Option(names = "--ticks", paramLabel = "N|lease+K",
            description = "override: clock bound, a tick N or K ticks past the lease the logic grants")
    String ticks;
    @Option(names = "--crashes", paramLabel = "N", description = "override: poller crashes allowed")
    Integer crashes;
    @Option(names = "--lost-acks", paramLabel = "N", description = "override: lost acknowledgements allowed")
    Integer lostAcks;
    @Option(names = "--deliver-fails", paramLabel = "N", description = "override: failed deliveries (consumer rollbacks) allowed")
    Integer deliverFails;
    @Option(names = "--produce-fails", paramLabel = "N", description = "override: failed produces allowed")
    Integer produceFails;
    @Option(names = "--instance-ids", paramLabel = "unique|shared|reused",
            description = "override: whether pollers present instance ids of their own (unique), one node's id (shared), "
                    + "or the last poller the first's, as a restart that reuses it while the first still runs (reused)")
    String instanceIds;

    /** {@code s} with every given flag applied, renamed after them; {@code s} itself when none is given. */
    Scenario apply(Scenario s) {
        Scenario.Builder b = s.toBuilder();
        List<String> changed = new ArrayList<>();
        if (pollers != null) {
            b.replacePollers(pollerNames(s.pollers(), at("--pollers", pollers, 1)));
            changed.add("pollers=" + pollers);
        }
        if (events != null) {
            if (at("--events", events, 1) > s.events().size()) {
                throw new UsageException("--events " + events + ": scenario " + s.name() + " has only " + s.events().size()
                        + " events (--events keeps the first N)");
            }
            b.replaceEvents(s.events().subList(0, events));
            changed.add("events=" + events);
        }
        if (batch != null) {
            b.batch(at("--batch", batch, 1));
            changed.add("batch=" + batch);
        }
        if (lease != null) {
            b.leaseTicks(at("--lease", lease, 1));
            changed.add("lease=" + lease);
        }
        if (ticks != null) {
            TickBound t;
            try {
                t = TickBound.parse(ticks);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--ticks: " + e.getMessage());
            }
            b.tickBound(t);
            changed.add("ticks=" + t);
        }
        if (crashes != null) {
            b.maxCrashes(at("--crashes", crashes, 0));
            changed.add("crashes=" + crashes);
        }
        if (lostAcks != null) {
            b.maxLostAcks(at("--lost-acks", lostAcks, 0));
            changed.add("lost-acks=" + lostAcks);
        }
        if (deliverFails != null) {
            b.maxDeliverFails(at("--deliver-fails", deliverFails, 0));
            changed.add("deliver-fails=" + deliverFails);
        }
        if (produceFails != null) {
            b.maxProduceFails(at("--produce-fails", produceFails, 0));
            changed.add("produce-fails=" + produceFails);
        }
        if (instanceIds != null) {
            Scenario.InstanceIds ids;
            try {
                ids = Scenario.InstanceIds.parse(instanceIds);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--instance-ids: " + e.getMessage());
            }
            b.instanceIds(ids);
            changed.add("instance-ids=" + ids.text());
        }
        if (changed.isEmpty()) {
            return s;
        }
        String description = s.description() + (s.description().isEmpty() ? "" : " ") + "[overridden: "
                + String.join(", ", changed) + "]";
        try {
            return b.name(s.name() + "+" + String.join("+", changed)).description(description).build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static int at(String flag, int value, int min) {
        if (value < min) {
            throw new UsageException(flag + " must be at least " + min + ", not " + value);
        }
        return value;
    }

    /** The first {@code n} of {@code names}, then p1, p2, ... that are not taken yet. */
    private static List<String> pollerNames(List<String> names, int n) {
        List<String> out = new ArrayList<>(names.subList(0, Math.min(n, names.size())));
        Set<String> taken = new HashSet<>(names); // looked up only
        for (int k = 1; out.size() < n; k++) {
            String candidate = "p" + k;
            if (!taken.contains(candidate)) {
                out.add(candidate);
                taken.add(candidate);
            }
        }
        return out;
    }
}
