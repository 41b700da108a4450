package dev.relaycheck.checker.walk;

import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Probabilistic Concurrency Testing (Burckhardt et al., ASPLOS 2010): each actor (the producer, each
 * poller, the clock) gets a random distinct priority; the highest-priority actor with an enabled step runs;
 * at {@code depth - 1} random change points the running actor drops to the lowest priority. A bug of depth
 * d is found with probability at least 1/(n k^(d-1)) per walk. Fault steps belong to their poller and are
 * taken with probability 1/4 when that poller runs.
 */
public final class PctScheduler implements Scheduler {
    private final SplitMix64 rng;
    private final int[] changePoints;
    private final TreeMap<String, Integer> priorities = new TreeMap<>();
    private int lowest;

    private PctScheduler(long seed, int depth, int expectedLength) {
        this.rng = new SplitMix64(seed);
        this.changePoints = new int[Math.max(0, depth - 1)];
        for (int i = 0; i < changePoints.length; i++) {
            changePoints[i] = rng.nextInt(Math.max(1, expectedLength));
        }
    }

    public static Factory factory(int depth, int expectedLength) {
        if (depth < 1) {
            throw new IllegalArgumentException("PCT depth must be at least 1");
        }
        return new Factory() {
            public String name() {
                return "pct";
            }

            public Scheduler forWalk(long seed) {
                return new PctScheduler(seed, depth, expectedLength);
            }
        };
    }

    @Override
    public Step choose(RelayState s, List<Step> enabled, int index) {
        TreeMap<String, List<Step>> byActor = new TreeMap<>();
        for (Step step : enabled) {
            byActor.computeIfAbsent(step.actor(), a -> new ArrayList<>()).add(step);
            priorities.computeIfAbsent(step.actor(), a -> (int) (rng.nextLong() >>> 33)); // first seen: random priority
        }
        String running = null;
        for (String actor : byActor.keySet()) {
            if (running == null || priorities.get(actor) > priorities.get(running)) {
                running = actor;
            }
        }
        for (int point : changePoints) {
            if (point == index) {
                priorities.put(running, --lowest - 1); // demote: now below everyone ever seen
            }
        }
        List<Step> mine = byActor.get(running);
        List<Step> normal = mine.stream().filter(x -> !x.isFault()).toList();
        List<Step> faults = mine.stream().filter(Step::isFault).toList();
        if (!faults.isEmpty() && (normal.isEmpty() || rng.nextInt(4) == 0)) {
            return faults.get(rng.nextInt(faults.size()));
        }
        return normal.get(rng.nextInt(normal.size()));
    }
}
