package dev.relaycheck.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Seeded random walks over a model: at each state, one enabled step chosen uniformly by {@link SplitMix64}.
 * The same model and seed always give the same schedule.
 */
public final class RandomSchedules {
    private RandomSchedules() {
    }

    /** A walk of at most {@code maxLength} steps from the initial state; it ends early where nothing is enabled. */
    public static List<Step> walk(RelayModel model, long seed, int maxLength) {
        SplitMix64 rng = new SplitMix64(seed);
        RelayState s = model.initial();
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < maxLength; i++) {
            List<Step> enabled = model.enabled(s);
            if (enabled.isEmpty()) {
                break;
            }
            Step step = enabled.get(rng.nextInt(enabled.size()));
            out.add(step);
            s = model.applyEnabled(s, step).state();
        }
        return out;
    }
}
