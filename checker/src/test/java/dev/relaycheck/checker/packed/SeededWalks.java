package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.SplitMix64;

import java.util.Arrays;

/**
 * Seeded random walks through a packed model, for checks that must hold at every state on the way and for
 * every step from it that breaks nothing (the only steps whose states the search expands).
 */
final class SeededWalks {
    private static final int WALKS = 8;
    private static final int DEPTH = 60;

    private SeededWalks() {
    }

    interface StepCheck {
        /** State s, the steps it enables, one of them (b), and where b leads (u), described by {@code where}. */
        void check(int[] s, int[] fromS, int b, Applied u, String where);
    }

    /** The result of a step from a copy of a state: the state after it, its outcome, and what it broke. */
    record Applied(int[] state, int outcome, byte result, int onlyPoller) {
    }

    static void forEachStep(PackedModel model, long seed, StepCheck check) {
        SplitMix64 random = new SplitMix64(seed);
        for (int walk = 0; walk < WALKS; walk++) {
            int[] s = model.initial();
            for (int depth = 0; depth < DEPTH && s != null; depth++) {
                int[] fromS = enabled(model, s);
                for (int b : fromS) {
                    Applied u = apply(model, s, b);
                    if (u.result == Successors.NONE) {
                        check.check(s, fromS, b, u, "walk " + walk + " depth " + depth + " in " + Arrays.toString(s));
                    }
                }
                s = next(model, s, fromS, random);
            }
        }
    }

    /** The walk's next state: one of the successors breaking nothing, picked at random; null if none. */
    private static int[] next(PackedModel model, int[] s, int[] steps, SplitMix64 random) {
        int[] clean = Arrays.stream(steps).filter(step -> apply(model, s, step).result == Successors.NONE).toArray();
        return clean.length == 0 ? null : apply(model, s, clean[random.nextInt(clean.length)]).state;
    }

    static int[] enabled(PackedModel model, int[] s) {
        int[] steps = new int[model.at.maxSteps];
        return Arrays.copyOf(steps, model.enabled(s, steps, false));
    }

    /** Takes a step from a copy of {@code s}; {@code onlyPoller} is the poller whose slots alone it wrote, or -1. */
    static Applied apply(PackedModel model, int[] s, int step) {
        int[] t = s.clone();
        int outcome = model.apply(t, step, model.at.encode(s), 0);
        int only = -1;
        for (int p = 0; p < model.at.pollers; p++) {
            only = model.wroteOnly(p) ? p : only;
        }
        return new Applied(t, outcome, PackedModel.breaks(outcome), only);
    }
}
