package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.space.Fingerprint;
import dev.relaycheck.checker.space.HealingOutcome;
import dev.relaycheck.checker.space.Judging;
import dev.relaycheck.checker.space.StateSpace;
import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Witness;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    private final boolean symmetric; // one state per permutation of the pollers (PollerSymmetry)

    private PackedSpace(RelayModel readable, PackedLogic logic, LogicTable.Shared table) {
        this(readable, logic, table, null, false);
    }

    private PackedSpace(RelayModel readable, PackedLogic logic, LogicTable.Shared table, PackedLayout layout, boolean symmetric) {
        this.readable = readable;
        Scenario scenario = readable.scenario();
        this.scenario = scenario;
        this.logic = logic;
        this.table = table;
        this.symmetric = symmetric;
        if (layout != null) {
            this.layout = layout;
        } else {
            this.layout = logic != null ? new PackedLayout(scenario, logic) : new PackedLayout(scenario, table.layoutSpec());
            if (table != null) {
                table.sizeFor(this.layout);
            }
        }
    }

    /**
     * This space with one state kept per permutation of the pollers ({@link PollerSymmetry}), or, where the pollers are
     * not interchangeable, why not (the search then runs this space as it is and says so).
     */
    public String whyNotSymmetric() {
        return PollerSymmetry.whyNot(readable);
    }

    /** This space over poller symmetry; only where {@link #whyNotSymmetric} says nothing. */
    public PackedSpace overPollers() {
        PackedSpace symmetric = new PackedSpace(readable, logic, table, layout, true);
        symmetric.remembersHealing = remembersHealing;
        return symmetric;
    }

    /** Whether it keeps one state per permutation of the pollers. */
    public boolean symmetric() {
        return symmetric;
    }

    /** The packed space for a model, if the scenario is one it runs ({@link #whyNot}). */
    public static Optional<PackedSpace> of(RelayModel model) {
        if (!whyNot(model).isEmpty()) {
            return Optional.empty();
        }
        Optional<PackedLogic> shipped = PackedLogic.of(model.logic()).filter(l -> reimplemented(model.scenario()));
        try {
            return Optional.of(new PackedSpace(model, shipped.orElse(null),
                    shipped.isPresent() ? null : new LogicTable.Shared(model)));
        } catch (LogicFailure f) { // its shapes answered now what they did not before: the readable model says where
            return Optional.empty();
        }
    }

    /**
     * The packed space for a model with its states' tokens renumbered canonically (see {@code CanonicalTokens}): for a
     * logic whose decisions compare tokens only for equality and order, whose exact tokens outgrow their field (a
     * token issued with another step or offset than the last one + 1, a lease that expires as it is granted). Its
     * decisions are memoised as any logic's are; {@link #probeAgreement} holds them to the readable model's with
     * exact tokens, so a logic that reads a token's value is found out.
     */
    public static Optional<PackedSpace> renumbering(RelayModel model) {
        if (!whyNot(model).isEmpty() || perRowVersions(model)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PackedSpace(model, null, new LogicTable.Shared(model, true)));
        } catch (LogicFailure f) {
            return Optional.empty();
        }
    }

    /**
     * Whether the logic fences by per-row versions, which renumbering would change: each row's version starts from 0,
     * so ranked with the other rows' tokens a claim of an unversioned row would no longer write the same version
     * relative to them. Such versions grow with one row's claims only, and the exact field holds them.
     */
    private static boolean perRowVersions(RelayModel model) {
        try {
            return model.logic().tokenPolicy() == RelayLogic.TokenPolicy.PER_ROW_VERSION;
        } catch (LogicFailure f) {
            return true; // the search meets the failure where the readable model would
        }
    }

    @Override
    public boolean renumbersTokens() {
        return table != null && table.renumbers;
    }

    /**
     * Whether the re-implementations of {@link PackedLogic} cover the scenario: none of the surroundings' hazards (renewals,
     * clock skew, overlapping producers, the outbox cleanup, shared instance ids) and none of their finer outcomes.
     * Elsewhere a shipped logic's decisions are memoised as any other logic's are.
     */
    static boolean reimplemented(Scenario s) {
        return s.hazardBounds().isNone() && s.requiredWitnesses().stream()
                .allMatch(w -> w.ordinal() <= Witness.DELIVERY_RETRIED.ordinal());
    }

    /**
     * Why the packed engine does not take a model ("" when it does): the one place that says what it runs. It runs
     * every step and shape of the model; what it declines is what its encoding has no room for, one line each.
     */
    public static String whyNot(RelayModel model) {
        Scenario s = model.scenario();
        if (s.pollers().size() > MAX_POLLERS || s.events().size() > MAX_EVENTS) {
            return "it takes at most " + MAX_POLLERS + " pollers and " + MAX_EVENTS + " events";
        }
        if (2 * s.maxSkew() + 1 > MAX_POLLERS) {
            return "a skew step names its skew in 4 bits: it takes a max-skew of at most " + (MAX_POLLERS - 1) / 2;
        }
        if (s.producersOverlap() && s.events().size() > MAX_POLLERS) {
            return "a commit step names its event in 4 bits: with overlapping producers it takes at most " + MAX_POLLERS + " events";
        }
        if (s.producersOverlap() && s.events().stream().anyMatch(e -> e.seq() <= 0)) {
            return "it keeps a cursor as the index of the highest event claimed, which a sequence of 0 or below does not match";
        }
        LogicTable.Shapes shapes;
        try {
            shapes = LogicTable.Shapes.of(model.logic(), s.leaseTicks());
        } catch (LogicFailure f) {
            return "asking logic " + model.logic().id() + " how it commits failed (" + f.line() + ")";
        }
        if (shapes.retention() >= 0 && s.events().size() > MAX_POLLERS) {
            return "a purge step names its event in 4 bits: with a marker retention it takes at most " + MAX_POLLERS + " events";
        }
        return "";
    }

    /**
     * The hazards of a scenario the packed engine does not model, as words for the note the search prints when it
     * falls back to the readable model; "" when it models them all (it does, today: kept for the search's note).
     */
    public static String unmodelledHazard(RelayModel model) {
        return "";
    }

    /**
     * Before the search's verdict on a user's logic is trusted: the {@link AgreementProbe}'s seeded walks on both
     * engines, seeded by the logic and the scenario. Throws {@link Disagreement} where they disagree, and a
     * {@link Fallback} where the packed encoding overflows on the way. A shipped logic's re-implementation is
     * held to the readable model by the tests instead.
     */
    public void probeAgreement() {
        if (table == null || PackedLogic.of(readable.logic()).isPresent() || LogicCatalogue.all().stream()
                .anyMatch(l -> l.getClass() == readable.logic().getClass())) {
            return; // a shipped logic: the tests hold its encoding and its tables to the readable model
        }
        long seed = (long) readable.logic().id().hashCode() << 32 ^ scenario.name().hashCode();
        AgreementProbe.disagreement(CheckedLogic.unwrap(readable.logic()), scenario, seed, table.renumbers).ifPresent(line -> {
            if (table.renumbers) { // renumbered, the logic may read what renumbering changes: the tokens' values
                throw new Fallback(line);
            }
            throw new Disagreement(line);
        });
    }

    /**
     * Over poller symmetry, the stored choices pick steps of canonical states: replayed on the concrete states the
     * readable model reaches, each is the step of the poller the canonical order put in its place. For a healing
     * failure the path is renamed, every step's poller with it, to end in the orbit's member whose healing fails (a
     * path the model has too, pollers being interchangeable).
     */
    @Override
    public List<Integer> concreteChoices(List<Integer> choices, boolean liveness) {
        if (!symmetric) {
            return choices;
        }
        PackedModel m = model().symmetric(false);
        int[] codes = new int[layout.maxSteps];
        int[] x = m.initial();
        List<Integer> concrete = new ArrayList<>();
        for (int k = 0; k < choices.size(); k++) {
            int[] c = x.clone();
            int[] order = m.canonicalOrder(c).clone();
            int[] to = new int[order.length];
            for (int i = 0; i < order.length; i++) {
                to[order[i]] = i;
            }
            m.movePollers(c, to);
            m.enabled(c, codes, false);
            int code = renamed(codes[choices.get(k)], order); // canonical place i is concrete poller order[i]
            concrete.add(code);
            if (k < choices.size() - 1 || liveness) { // a safety path's last step is the violation: never stored
                m.apply(x, code, layout.encode(x), 0);
            }
        }
        int[] rename = identity(layout.pollers);
        if (liveness) { // the orbit's member that fails healing, as a renaming of the concrete path's pollers
            int[] order = m.canonicalOrder(x).clone();
            int[] to = new int[order.length];
            for (int i = 0; i < order.length; i++) {
                to[order[i]] = i;
            }
            int[] c = x.clone();
            m.movePollers(c, to);
            int[] member = m.firstMemberFailingHealing(c);
            for (int i = 0; member != null && i < order.length; i++) {
                rename[order[i]] = member[i];
            }
        }
        int[] y = m.initial();
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < concrete.size(); k++) {
            int code = renamed(concrete.get(k), rename);
            int n = m.enabled(y, codes, false);
            int index = indexOf(codes, n, code);
            out.add(index);
            if (k < concrete.size() - 1) {
                m.apply(y, code, layout.encode(y), 0);
            }
        }
        return out;
    }

    private static int[] identity(int n) {
        int[] id = new int[n];
        for (int i = 0; i < n; i++) {
            id[i] = i;
        }
        return id;
    }

    private static int indexOf(int[] codes, int n, int code) {
        for (int i = 0; i < n; i++) {
            if (codes[i] == code) {
                return i;
            }
        }
        throw new IllegalStateException("internal error: step " + code + " is not enabled on the concrete path");
    }

    /** Step code {@code code} with its poller p renamed to {@code to[p]} (a step of no poller as it is). */
    private static int renamed(int code, int[] to) {
        int kind = code >>> 4;
        return StepKinds.ofPoller(kind) ? kind << 4 | to[code & 15] : code;
    }

    private boolean remembersHealing;

    /**
     * This space with each worker remembering where its healing runs went ({@link HealingMemo}): exact, so it changes
     * no result, only the time healing takes (the bench measures it both ways).
     */
    public PackedSpace rememberingHealing() {
        remembersHealing = true;
        return this;
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
            return Fingerprint.ofWords(words, i * stride, stride);
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

    @Override
    public int wordsPerState() {
        return layout.words;
    }

    /** A worker's model: each keeps scratch buffers (and, for a logic it does not know, its memo of answers). */
    private PackedModel model() {
        return (logic != null ? new PackedModel(scenario, logic, layout) : new PackedModel(table, layout)).symmetric(symmetric);
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
        int period = HealingMemo.period(model.mostFairSteps());
        HealingMemo memo = period > 0 && remembersHealing ? new HealingMemo(period, model.healingBound()) : null;
        model.memoisingHealing(memo);
        StepFootprint footprints = model.footprints();
        int stride = layout.words;
        int[] from = new int[layout.size];
        int[] steps = new int[layout.maxSteps];
        boolean crashesKnowable = footprints.crashesBreakNothing();
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
                    int poller = steps[k] & 15;
                    int step = footprints.step(from, steps[k], model.claimTakesLiveLease(poller));
                    long footprint = footprints.of(step);
                    byte stored = StepFootprint.knownStored(footprint, cameBy);
                    int shown = stored == 0 ? -1 : Route.witnessesBefore(route, footprint);
                    if (steps[k] >>> 4 == StepKinds.CRASH && crashesKnowable && (crashKnown >>> poller & 1) != 0) {
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
                    boolean forgets = wroteOnlyPoller && crashesKnowable && poller < layout.pollers
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
                    // where the pollers moved into canonical order, the route's steps and places are another order's
                    out.addPacked(Fingerprint.ofWords(into, offset, stride), (byte) (breaks | stored), witnesses, model.permuted()
                            ? Route.of(StepFootprint.NO_STEP, 0, 0) : Route.of(step, outcomes, crashKnownThere), broken);
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
            public long healingRunsRemembered() {
                return memo == null ? 0 : memo.hits();
            }

            @Override
            public int healingFromLast() {
                try {
                    return symmetric ? model.orbitHealing(from) : model.healing(from);
                } catch (LogicFailure f) {
                    failed = new Failed(f, LogicFault.Doing.HEALING, Optional.empty());
                    return HealingOutcome.HEALS;
                }
            }
        };
    }
}
