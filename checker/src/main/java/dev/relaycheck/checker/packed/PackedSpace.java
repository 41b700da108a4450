package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.search.Judging;
import dev.relaycheck.checker.search.StateSpace;
import dev.relaycheck.checker.search.Successors;
import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;

import java.util.Arrays;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The packed twin of the readable model as a search space: a state is a few {@code long} words; a state is
 * expanded by unpacking it once into an {@code int[]} scratch, then for each step writing a few slots through
 * a journal, each write packed into a copy of the words as it is made, and undoing them; a fingerprint mixes
 * the words. A step whose successor is known to be stored, and whose outcome is known, is counted and not
 * taken: what makes it known is in {@link StepFootprint} and {@link Route}.
 * It takes any logic on scenarios within its limits: the reference logic and the catalogue variants it
 * re-implements ({@link PackedLogic}); any other logic's decisions it memoises ({@link LogicTable}), asking
 * the logic each question once a worker. {@code PackedAgreementTest} holds it to the readable model state by
 * state and count by count, with logics compiled in the test too.
 */
public final class PackedSpace implements StateSpace {
    /** The limits of the encoding: a step names its poller in 4 bits, and payload masks are ints. */
    private static final int MAX_POLLERS = 16;
    private static final int MAX_EVENTS = 31;

    /**
     * The packed search cannot go on (a value past its field, a logic answer it cannot hold, the logic broke
     * its contract); the caller runs the readable model, the definition, from the start, saying why.
     */
    public static class Fallback extends RuntimeException {
        public Fallback(String message) {
            super(message, null, false, false);
        }
    }

    /** A value grew past its bit field (or a logic's answer past what the encoding holds). */
    public static final class Overflow extends Fallback {
        public Overflow(String message) {
            super(message);
        }
    }

    /**
     * The packed engine and the readable model disagree on a user's logic ({@link AgreementProbe}): a bug in
     * relaycheck, which the search must not hide behind a verdict. Its message is one line.
     */
    public static final class Disagreement extends RuntimeException {
        Disagreement(String message) {
            super(message, null, false, false);
        }
    }

    private final RelayModel readable;
    private final Scenario scenario;
    private final PackedLogic logic; // a shipped logic, or null ...
    private final LogicTable.Shared table; // ... and the memoised decisions of any other
    private final PackedLayout layout;

    private PackedSpace(RelayModel readable, PackedLogic logic, LogicTable.Shared table) {
        this.readable = readable;
        Scenario scenario = readable.scenario();
        this.scenario = scenario;
        this.logic = logic;
        this.table = table;
        this.layout = logic != null ? new PackedLayout(scenario, logic) : new PackedLayout(scenario, table);
        if (table != null) {
            table.sizeFor(layout);
        }
    }

    /** The packed space for a model, if the scenario is one it runs ({@link #whyNot}). */
    public static Optional<PackedSpace> of(RelayModel model) {
        if (!whyNot(model).isEmpty()) {
            return Optional.empty();
        }
        Optional<PackedLogic> shipped = PackedLogic.of(model.logic());
        try {
            return Optional.of(new PackedSpace(model, shipped.orElse(null),
                    shipped.isPresent() ? null : new LogicTable.Shared(model)));
        } catch (LogicFailure f) { // its shapes answered now what they did not before: the readable model says where
            return Optional.empty();
        }
    }

    /**
     * Why the packed engine does not take a model ("" when it does): the one place that says what it runs. A
     * scenario that uses a step or hazard the packed model does not have is declined here, one line each.
     */
    public static String whyNot(RelayModel model) {
        String hazard = unmodelledHazard(model);
        if (!hazard.isEmpty()) {
            return "it does not model " + hazard;
        }
        String hook = unmodelledHook(model.logic());
        if (!hook.isEmpty()) {
            return "it does not model " + hook;
        }
        Scenario s = model.scenario();
        // issue 20: a scenario that asks for a witness this engine does not report (a late redelivery needs dated
        // markers, an ack mid-batch or an unmatched ack its finer outcome) runs on the readable model
        java.util.List<String> unknown = s.requiredWitnesses().stream()
                .filter(w -> w.ordinal() > dev.relaycheck.model.Witness.DELIVERY_RETRIED.ordinal()).map(Enum::name).toList();
        if (!unknown.isEmpty()) {
            return "scenario " + s.name() + " requires " + String.join(", ", unknown) + ", which it does not model";
        }
        if (s.pollers().size() > MAX_POLLERS || s.events().size() > MAX_EVENTS) {
            return "it takes at most " + MAX_POLLERS + " pollers and " + MAX_EVENTS + " events";
        }
        if (PackedLogic.of(model.logic()).isEmpty()) {
            try {
                LogicTable.Shapes.of(model.logic());
            } catch (LogicFailure f) {
                return "asking logic " + model.logic().id() + " how it commits failed (" + f.line() + ")";
            }
        }
        return "";
    }

    /**
     * The logic's answers the packed encoding has no room for, as words for the fallback note; "" when it uses none:
     * a marker retention (a Purge step), an ack that marks other rows, a settle result ignored or an unlock after it
     * (issue 20), per-row versions and delivery and ack in one transaction (issue 17). Asked of the logic itself,
     * so a user's logic that uses one falls back as a catalogue variant does.
     */
    static String unmodelledHook(dev.relaycheck.model.RelayLogic logic) {
        dev.relaycheck.model.RelayLogic l = dev.relaycheck.model.CheckedLogic.unwrap(logic);
        java.util.List<String> what = new java.util.ArrayList<>();
        if (l.markerRetention(2).isPresent()) {
            what.add("marker retention");
        }
        if (overrides(l, "rowsAckTouches")) {
            what.add("acks that mark other rows");
        }
        if (!l.readsSettleResult() || l.unlocksAfterSettling()) {
            what.add("what a poller does with an ack's result");
        }
        if (l.tokenPolicy() != dev.relaycheck.model.RelayLogic.TokenPolicy.GLOBAL_COUNTER) {
            what.add("per-row versions");
        }
        if (l.deliversAndAcksTogether()) {
            what.add("delivery and ack in one transaction");
        }
        return String.join(", ", what);
    }

    private static boolean overrides(dev.relaycheck.model.RelayLogic l, String method) {
        for (Class<?> c = l.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(method)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The hazards of issue 20 (lease renewal, clock skew, overlapping producers, cursor relays) and instance ids shared
     * or reused by pollers, which the packed encoding does not hold, as words for the note the search prints when it
     * falls back to the readable model; "" when
     * the model uses none of them. A scenario's bounds or a logic's cursor rule decide, never the logic's class.
     */
    public static String unmodelledHazard(RelayModel model) {
        Scenario s = model.scenario();
        java.util.List<String> what = new java.util.ArrayList<>();
        if (s.maxRenewals() > 0) {
            what.add("lease renewal");
        }
        if (s.maxSkew() > 0) {
            what.add("clock skew");
        }
        if (s.producersOverlap()) {
            what.add("overlapping producers");
        }
        if (model.logic().cursorRule() != dev.relaycheck.model.RelayLogic.CursorRule.NONE) {
            what.add("cursor relays");
        }
        if (s.instanceIds() != Scenario.InstanceIds.UNIQUE) {
            // a lease's owner and every decision's poller are the poller's own index in the encoding
            what.add("pollers that present one instance id (instance-ids " + s.instanceIds().text() + ")");
        }
        if (s.cleanup()) {
            what.add("the outbox cleanup");
        }
        return String.join(", ", what);
    }

    /**
     * Before the search's verdict on a user's logic is trusted: the {@link AgreementProbe}'s seeded walks on both
     * engines, seeded by the logic and the scenario. Throws {@link Disagreement} where they disagree, and a
     * {@link Fallback} where the packed encoding overflows on the way. A shipped logic's re-implementation is
     * held to the readable model by the tests instead.
     */
    public void probeAgreement() {
        if (table == null) {
            return;
        }
        long seed = (long) readable.logic().id().hashCode() << 32 ^ scenario.name().hashCode();
        AgreementProbe.disagreement(CheckedLogic.unwrap(readable.logic()), scenario, seed).ifPresent(line -> {
            throw new Disagreement(line);
        });
    }

    @Override
    public String engine() {
        return "packed";
    }

    @Override
    public Level initial() {
        Words level = new Words();
        level.extend(1);
        System.arraycopy(layout.encode(model().initial()), 0, level.words, 0, layout.words);
        level.routes[0] = Route.of(StepFootprint.NO_STEP, 0, 0);
        return level;
    }

    @Override
    public Level newLevel() {
        return new Words();
    }

    /**
     * A level as one flat array of packed states, {@code stride} words each, and the route that found each
     * ({@link Route}): no object per state.
     */
    private final class Words implements Level {
        private final int stride = layout.words;
        private long[] words = new long[64 * stride];
        private long[] routes = new long[64];
        private int size;

        @Override
        public int size() {
            return size;
        }

        @Override
        public long fingerprint(int i) {
            return PackedSpace.fingerprint(words, i * stride, stride);
        }

        @Override
        public void extend(int count) {
            size += count;
            if (size > routes.length) {
                routes = Arrays.copyOf(routes, Math.max(size, 2 * routes.length));
                words = Arrays.copyOf(words, routes.length * stride);
            }
        }

        @Override
        public void put(int index, Successors from, int j) {
            from.copyWords(j, words, index * stride);
            routes[index] = from.route(j);
        }

        @Override
        public void truncate(int size) {
            this.size = size;
        }
    }

    /**
     * A state's fingerprint: each word times its own odd constant, rotated apart, summed, then mixed by
     * SplitMix64's finaliser. The products are independent, so they cost one multiply's latency, not one per
     * word; and a one-word state's fingerprint is a bijection of it, hence exact.
     */
    static long fingerprint(long[] words, int at, int stride) {
        long h = 0;
        for (int i = 0; i < stride; i++) {
            h += Long.rotateLeft(words[at + i] * ODD[i & 7], 17 * i);
        }
        return SplitMix64.mix(h);
    }

    private static final long[] ODD = {0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L,
            0xD6E8FEB86659FD93L, 0xFF51AFD7ED558CCDL, 0xC4CEB9FE1A85EC53L, 0xA0761D6478BD642FL, 0xE7037ED1A0B428DBL};

    @Override
    public int wordsPerState() {
        return layout.words;
    }

    /** A worker's model: each keeps scratch buffers (and, for a logic it does not know, its memo of answers). */
    private PackedModel model() {
        return logic != null ? new PackedModel(scenario, logic, layout) : new PackedModel(table, layout);
    }

    /**
     * Judges every invariant (its model knows no other way); for a search that goes on past violations, a step the
     * packed model says breaks one is taken again on the readable model to name which ({@link #invariantsBroken}).
     */
    @Override
    public Expander expander(Judging judging) {
        if (!judging.all()) {
            throw new IllegalArgumentException("the packed engine judges every invariant; a search of some runs on the readable model");
        }
        PackedModel model = model();
        StepFootprint footprints = model.footprints();
        int stride = layout.words;
        int[] from = new int[layout.size];
        int[] steps = new int[PackedModel.maxSteps(layout.pollers)];
        ReadableView view = new ReadableView(scenario, readable.logic(), layout, table);
        boolean every = judging.everyInvariant();
        return new Expander() {
            private Failed failed;
            private int taking; // the step being taken, or -1 while listing the steps
            private RelayState parent; // the readable state being expanded, made when one of its steps breaks something

            @Override
            public void expand(Level level, int i, LongPredicate known, Successors out) {
                failed = null;
                taking = -1;
                parent = null;
                try {
                    expandPacked(level, i, out);
                } catch (LogicFailure f) { // only a user's logic, through its tables: the search stops at this state
                    Optional<Step> step = Optional.empty();
                    if (taking >= 0) {
                        model.undo(from); // the step's writes so far, so the step is named as it was enabled
                        step = Optional.of(model.readableStep(from, taking));
                    }
                    failed = new Failed(f, step.isPresent() ? LogicFault.Doing.TAKING_STEP : LogicFault.Doing.LISTING_STEPS, step);
                }
            }

            @Override
            public Optional<Failed> failed() {
                return Optional.ofNullable(failed);
            }

            private void expandPacked(Level level, int i, Successors out) {
                long[] words = ((Words) level).words;
                long route = ((Words) level).routes[i];
                long cameBy = footprints.of(Route.step(route));
                int crashKnown = Route.crashKnown(route);
                long outcomes = 0; // what this state's steps showed so far, for the routes of its successors
                int at = i * stride;
                layout.decode(words, at, from); // undo leaves it holding this state, for healingFromLast
                int n = model.enabled(from, steps, false);
                for (int k = 0; k < n; k++) {
                    int step = footprints.step(from, steps[k]);
                    int poller = steps[k] & 15;
                    long footprint = footprints.of(step);
                    byte stored = StepFootprint.knownStored(footprint, cameBy);
                    int shown = stored == 0 ? -1 : Route.witnessesBefore(route, footprint);
                    if (steps[k] >>> 4 == PackedModel.CRASH && (crashKnown >>> poller & 1) != 0) {
                        shown = 0; // the route knows this crash leads to a stored state, and a crash shows nothing
                    }
                    if (shown >= 0) { // known stored, and what it shows is known: count it, do not take it
                        out.addKnownStored(shown, Route.of(step, outcomes, 0));
                        outcomes |= Route.outcome(footprint, shown);
                        continue;
                    }
                    long[] into = out.nextWords();
                    int offset = out.nextWordsOffset();
                    for (int w = 0; w < stride; w++) { // a few words: cheaper than arraycopy's call
                        into[offset + w] = words[at + w];
                    }
                    taking = steps[k];
                    int result = model.apply(from, steps[k], into, offset);
                    taking = -1;
                    boolean wroteOnlyPoller = model.wroteOnly(poller);
                    model.undo(from);
                    // a crash of the poller forgets what the step did, if the poller was busy in this state
                    boolean forgets = wroteOnlyPoller
                            && from[layout.poller(poller) + PackedLayout.PHASE] != PackedModel.IDLE;
                    byte breaks = PackedModel.breaks(result);
                    int witnesses = PackedModel.witnesses(result);
                    int broken = every && breaks != Successors.NONE ? invariantsBroken(steps[k]) : 0;
                    if (breaks == Successors.BREAKS_STATE) { // never stored, so its words are never read
                        out.addPacked(0, breaks, witnesses, Route.of(step, outcomes, 0), broken);
                        if (every) {
                            continue;
                        }
                        return;
                    }
                    int crashKnownThere = (forgets ? 1 << poller : 0)
                            | crashKnown & ~footprints.pollersTouched(footprint);
                    out.addPacked(fingerprint(into, offset, stride), (byte) (breaks | stored), witnesses,
                            Route.of(step, outcomes, crashKnownThere), broken);
                    if (breaks != Successors.NONE) {
                        if (every) {
                            continue;
                        }
                        return;
                    }
                    outcomes |= Route.outcome(footprint, witnesses);
                }
            }

            /**
             * The invariants the step of code {@code code} from the state being expanded breaks, a bit per ordinal, as
             * the readable model judges it from that state unpacked: the packed model says only that it breaks one.
             */
            private int invariantsBroken(int code) {
                if (parent == null) {
                    parent = view.state(from);
                }
                Step step = model.readableStep(from, code);
                StepResult r = readable.applyEnabled(parent, step);
                int mask = judging.maskOf(Invariants.check(scenario, readable.logic().tokenPolicy(), parent, step, r));
                if (mask == 0) {
                    throw new Disagreement("the packed engine says " + step + " breaks an invariant in state " + parent
                            + ", the readable model that it breaks none");
                }
                return mask;
            }

            @Override
            public int healingFromLast() {
                try {
                    return model.healing(from);
                } catch (LogicFailure f) {
                    failed = new Failed(f, LogicFault.Doing.HEALING, Optional.empty());
                    return HEALS;
                }
            }
        };
    }
}
