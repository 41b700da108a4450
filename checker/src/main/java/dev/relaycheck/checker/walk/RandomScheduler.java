package dev.relaycheck.checker.walk;

import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;

import java.util.List;

/** Uniform random walk: every enabled step, faults included, equally likely. */
public final class RandomScheduler implements Scheduler {
    private final SplitMix64 rng;

    private RandomScheduler(long seed) {
        this.rng = new SplitMix64(seed);
    }

    public static Factory factory() {
        return new Factory() {
            public String name() {
                return "random";
            }

            public Scheduler forWalk(long seed) {
                return new RandomScheduler(seed);
            }
        };
    }

    @Override
    public Step choose(RelayState s, List<Step> enabled, int index) {
        return enabled.get(rng.nextInt(enabled.size()));
    }
}
