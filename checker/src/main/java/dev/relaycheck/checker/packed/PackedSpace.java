package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.StateSpace;
import dev.relaycheck.checker.Successors;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;

import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The packed twin of the readable model as a search space: a state is a few {@code long} words, a
 * transition is a copy of an {@code int[]} scratch and a few writes to it, and a fingerprint mixes the words.
 * It takes the reference logic and the catalogue variants ({@link PackedLogic}) on scenarios within its limits;
 * {@code PackedAgreementTest} holds it to the readable model state by state and count by count.
 */
public final class PackedSpace implements StateSpace<long[]> {
    /** The limits of the encoding: a step names its poller in 4 bits, and payload masks are ints. */
    private static final int MAX_POLLERS = 16;
    private static final int MAX_EVENTS = 31;

    /** A value grew past its bit field; the caller falls back to the readable model. */
    public static final class Overflow extends RuntimeException {
        public Overflow(String message) {
            super(message, null, false, false);
        }
    }

    private final Scenario scenario;
    private final PackedLogic logic;
    private final PackedLayout layout;

    private PackedSpace(Scenario scenario, PackedLogic logic) {
        this.scenario = scenario;
        this.logic = logic;
        this.layout = new PackedLayout(scenario, logic);
    }

    /** The packed space for a model, if its logic is one the engine knows and the scenario fits. */
    public static Optional<PackedSpace> of(RelayModel model) {
        if (!whyNot(model).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new PackedSpace(model.scenario(), PackedLogic.of(model.logic()).orElseThrow()));
    }

    /** Why the packed engine does not take a model ("" when it does). */
    public static String whyNot(RelayModel model) {
        if (PackedLogic.of(model.logic()).isEmpty()) {
            return "it knows only the reference logic and the catalogue variants, not " + model.logic().getClass().getName();
        }
        Scenario s = model.scenario();
        if (s.pollers().size() > MAX_POLLERS || s.events().size() > MAX_EVENTS) {
            return "it takes at most " + MAX_POLLERS + " pollers and " + MAX_EVENTS + " events";
        }
        return "";
    }

    @Override
    public String engine() {
        return "packed";
    }

    @Override
    public long[] initial() {
        return layout.encode(new PackedModel(scenario, logic).initial());
    }

    @Override
    public long fingerprint(long[] words) {
        long h = 0x2545F4914F6CDD1DL;
        for (long w : words) {
            h = mix(h ^ w);
        }
        return h;
    }

    /** SplitMix64's finaliser: a bijection, so a one-word state's fingerprint is exact. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** How many longs a state takes (for the benchmark figures). */
    public int words() {
        return layout.words;
    }

    @Override
    public Expander<long[]> expander() {
        PackedModel model = new PackedModel(scenario, logic);
        int[] from = new int[layout.size];
        int[] to = new int[layout.size];
        int[] steps = new int[PackedModel.maxSteps(layout.pollers)];
        return new Expander<>() {
            @Override
            public void expand(long[] state, LongPredicate known, Successors<long[]> out) {
                layout.decode(state, from);
                int n = model.enabled(from, steps, false);
                for (int i = 0; i < n; i++) {
                    System.arraycopy(from, 0, to, 0, from.length);
                    int result = model.apply(to, steps[i]);
                    byte breaks = PackedModel.breaks(result);
                    if (breaks == Successors.BREAKS_STATE) { // never stored, so never encoded
                        out.add(null, 0, breaks, PackedModel.witnesses(result));
                        return;
                    }
                    long[] next = layout.encode(to);
                    out.add(next, fingerprint(next), breaks, PackedModel.witnesses(result));
                    if (breaks != Successors.NONE) {
                        return;
                    }
                }
            }

            @Override
            public boolean healingFails(long[] state) {
                layout.decode(state, from);
                return model.healingFails(from);
            }
        };
    }
}
