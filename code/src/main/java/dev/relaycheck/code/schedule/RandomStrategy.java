package dev.relaycheck.code.schedule;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Each step uniformly among those enabled, from a seed; a fault only one time in {@link #FAULT_ODDS} when something
 * else could go (faults are listed once per actor and kind, and would otherwise crowd out the relay's own steps).
 */
public final class RandomStrategy implements Strategy {
    static final int FAULT_ODDS = 8;
    private final SplittableRandom random;

    public RandomStrategy(long seed) {
        this.random = new SplittableRandom(seed);
    }

    @Override
    public Choice pick(List<Choice> enabled, int step) {
        List<Choice> plain = enabled.stream().filter(c -> !c.isFault()).toList();
        List<Choice> faults = enabled.stream().filter(Choice::isFault).toList();
        boolean fault = !faults.isEmpty() && (plain.isEmpty() || random.nextInt(FAULT_ODDS) == 0);
        List<Choice> from = fault ? faults : plain;
        return from.get(random.nextInt(from.size()));
    }

    @Override
    public String name() {
        return "random";
    }
}
