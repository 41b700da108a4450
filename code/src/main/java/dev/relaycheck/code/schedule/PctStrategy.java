package dev.relaycheck.code.schedule;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Probabilistic concurrency testing (Burckhardt et al.): every lane -- an actor's steps, the clock -- gets a random
 * priority; the highest-priority lane that can step does, so one actor runs far ahead of the others (a stall) until,
 * at {@code depth - 1} change points drawn from the seed, the lane on top drops to the bottom. Faults strike at
 * steps drawn from the seed too, one of those enabled there.
 */
public final class PctStrategy implements Strategy {
    private final SplittableRandom random;
    private final Map<String, Integer> priority = new HashMap<>(); // looked up only, never iterated
    private final TreeSet<Integer> changePoints = new TreeSet<>();
    private final TreeSet<Integer> faultPoints = new TreeSet<>();
    private int lowest = 0;

    public PctStrategy(long seed, int depth, int steps) {
        this.random = new SplittableRandom(seed);
        for (int i = 1; i < depth; i++) {
            changePoints.add(random.nextInt(Math.max(1, steps)));
        }
        for (int i = 0; i < depth; i++) {
            faultPoints.add(random.nextInt(Math.max(1, steps)));
        }
    }

    @Override
    public Choice pick(List<Choice> enabled, int step) {
        List<Choice> faults = enabled.stream().filter(Choice::isFault).toList();
        if (!faults.isEmpty() && (faultPoints.remove(step) || faults.size() == enabled.size())) {
            return faults.get(random.nextInt(faults.size()));
        }
        Choice best = null;
        int bestPriority = Integer.MIN_VALUE;
        for (Choice c : enabled) {
            if (c.isFault()) {
                continue;
            }
            int p = priority.computeIfAbsent(lane(c), l -> random.nextInt(1, 1_000_000));
            if (p > bestPriority) {
                best = c;
                bestPriority = p;
            }
        }
        if (changePoints.remove(step)) {
            priority.put(lane(best), --lowest);
        }
        return best;
    }

    /** An actor's steps share a lane, the clock's are one. */
    private static String lane(Choice c) {
        return c.toString();
    }

    @Override
    public String name() {
        return "pct";
    }
}
