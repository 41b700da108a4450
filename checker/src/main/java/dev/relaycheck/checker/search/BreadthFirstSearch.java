package dev.relaycheck.checker.search;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.packed.Fallback;
import dev.relaycheck.checker.packed.Overflow;
import dev.relaycheck.checker.packed.PackedSpace;
import dev.relaycheck.checker.space.CanonicalTokens;
import dev.relaycheck.checker.space.HealingOutcome;
import dev.relaycheck.checker.space.Judging;
import dev.relaycheck.checker.space.ReadableSpace;
import dev.relaycheck.checker.space.StateSpace;
import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.checker.space.VisitedSet;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.Judge;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.variants.BrokenVariant;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongPredicate;

/**
 * Exhaustive breadth-first search with fingerprint-based duplicate detection. Transition invariants are
 * checked on every transition, state invariants on every new state, so the first violation found is at the
 * smallest depth: a shortest counterexample. EVENTUAL_DELIVERY is checked by a healing run from every
 * state without successors and from every {@code healEvery}-th new state; the first state in search order whose
 * healing fails is reported once the search ends, unless a safety violation ends it first (so a safety
 * counterexample is always a shortest one): after the whole space, and also when the search stops at its
 * bound, for a healing failure found before the bound is a real one whether the space closes or not.
 *
 * <p>Violations ({@link Judging}): by default the search goes on past a violation and reports every invariant it
 * finds broken, each with the first counterexample in search order, so its shortest. A state reached by a step that
 * broke an invariant is not expanded (nor stored: reached by a step that breaks nothing, it is), so every
 * counterexample breaks nothing before its last step; an invariant that only breaks after another did is that
 * one's consequence, and not reported. The healing failure, if any, is added when it names an invariant not
 * found otherwise. A search may end at its first violation instead (what a catalogue mistake needs: is it
 * caught), and may judge some invariants only: a violation of another is then none, and the search goes on
 * through it. The packed model cannot expand a state that breaks an invariant, so a search of some invariants
 * runs on it as a search of all first, and again on the readable model where one not judged broke.
 *
 * <p>Tokens ({@link Tokens}): exact, or renumbered canonically ({@link CanonicalTokens}), which merges states
 * that differ only in token values and so closes the space of a logic whose leases expire as they are granted
 * (every claim a new token, forever). By default tokens are exact while the space stays within the tokens a
 * lease-respecting relay can issue ({@link CanonicalTokens#exactBound}), which every shipped logic on every
 * reference scenario does, so their counts are the exact ones; once a token passes the packed engine's field
 * (or, on the readable model, a completed level holds a state past the bound), the search starts again with
 * tokens renumbered.
 *
 * <p>It runs on a {@link StateSpace}: the packed one when it takes the logic, else the readable model; both
 * give the same counts, and a counterexample is rebuilt and judged on the readable model either way.
 *
 * <p>Each level is processed in chunks, and each chunk in parts, by a {@link Crew} of worker threads, each
 * taking the next task as soon as it is free. A chunk's parts are expanded (successors, invariant checks,
 * fingerprints, healing); then each shard of the visited set takes the chunk's successors that fall in it,
 * in frontier order, listing which are new (but those the space knows are stored, which it only counts);
 * then each part's new states are numbered and stored, their first number known from the counts before,
 * and its transitions tallied. One thread sums the tallies in frontier order, up to the first part that
 * stopped. The search runs as a pipeline: the visited set takes one chunk's successors while the next
 * chunk is expanded, so the lookups, which wait on main memory, share the cores with the expansion, which
 * computes. Frontier order alone decides ids, counts and which counterexample is reported, so any number
 * of threads, however the tasks fall to them, gives the same result.
 *
 * <p>A logic that breaks its contract (it throws, or answers one question two ways: see {@link CheckedLogic})
 * stops the expansion of the state it failed in; the search ends at the first such state in frontier order,
 * unless a violation comes before it, and reports a {@link LogicFault} instead of a verdict on the invariants.
 */
public final class BreadthFirstSearch {
    /**
     * States a chunk takes: packed states are cheap, so a chunk is big enough that the threads' meetings cost
     * little; readable ones keep every successor as objects until the chunk is numbered, so theirs is small.
     */
    private static final int PACKED_CHUNK = 1 << 16;
    private static final int READABLE_CHUNK = 1 << 12;

    /**
     * Parts of a chunk per thread: enough that a thread done early finds work left, and that the last part
     * taken is short, for the other thread waits for it (on soak, about half a millisecond a part; bench measures
     * the waiting).
     */
    private static final int PARTS_PER_THREAD = 32;

    /**
     * A pipeline step with less work than this, in frontier states (those expanded and those whose successors
     * are added), runs on one thread: the threads meet at the end of every step, and a member descheduled on a
     * loaded machine holds the others for its time slice, so small levels run slower on two threads than on
     * one. A readable state costs far more than a packed one, hence the smaller threshold.
     */
    private static final int PACKED_ALONE_BELOW = 1 << 14;
    private static final int READABLE_ALONE_BELOW = 1 << 9;
    /**
     * {@code -Drelaycheck.search.aloneBelow=N} sets that size for both engines (the tests set 0, so that their
     * small searches run every step on all their threads); it changes only which thread does a task.
     */
    private static final int ALONE_BELOW_SET = Integer.getInteger("relaycheck.search.aloneBelow", -1);

    private static final int INVARIANTS = Invariant.values().length;

    /** The kinds of task a worker does, for the time it spends on each. */
    private static final int EXPANDING = 0;
    private static final int ADDING = 1;
    private static final int NUMBERING = 2;
    private static final int TASK_KINDS = 3;

    /** Which state space runs the search. Both give the same counts; the packed one is many times faster. */
    public enum Engine {
        /** The packed space when it takes the logic and scenario, else the readable one. */
        AUTO,
        /** The packed space, or a usage error when it does not take the logic or scenario. */
        PACKED,
        /** The readable model itself. */
        READABLE
    }

    /** How the search treats fencing tokens. */
    public enum Tokens {
        /** Exact while the space stays within the tokens a lease-respecting relay issues, else renumbered. */
        AUTO,
        /** Exact values: the space of a logic whose tokens grow without end never closes. */
        EXACT,
        /** Renumbered canonically from the start: on the packed engine where it takes the logic, else the readable model. */
        CANONICAL
    }

    /** The exact space outgrew the tokens a lease-respecting relay issues: the search starts again, renumbered. */
    private static final class TokensOutgrown extends RuntimeException {
        TokensOutgrown(String message) {
            super(message, null, false, false);
        }
    }

    /** Pass as max states for the bound the heap holds with the engine chosen. */
    public static final int HEAP_BOUND = 0;

    private final int maxStates;
    private final int healEvery;
    private final int threads;
    private final Engine engine;
    private final Tokens tokens;
    private final Progress progress;
    private final Judging judging;
    private final boolean symmetry;
    private final boolean remembersHealing;

    public BreadthFirstSearch(int maxStates, int healEvery, Progress progress) {
        this(maxStates, healEvery, 1, progress);
    }

    public BreadthFirstSearch(int maxStates, int healEvery, int threads, Progress progress) {
        this(maxStates, healEvery, threads, Engine.AUTO, progress);
    }

    public BreadthFirstSearch(int maxStates, int healEvery, int threads, Engine engine, Progress progress) {
        this(maxStates, healEvery, threads, engine, Tokens.AUTO, progress);
    }

    public BreadthFirstSearch(int maxStates, int healEvery, int threads, Engine engine, Tokens tokens, Progress progress) {
        this(maxStates, healEvery, threads, engine, tokens, progress, Judging.EVERY, false, false);
    }

    private BreadthFirstSearch(int maxStates, int healEvery, int threads, Engine engine, Tokens tokens, Progress progress,
                               Judging judging, boolean symmetry, boolean remembersHealing) {
        if (maxStates < 0 || healEvery < 1 || threads < 1) {
            throw new IllegalArgumentException("max states must be >= 0, heal-every and threads >= 1");
        }
        this.maxStates = maxStates;
        this.healEvery = healEvery;
        this.threads = threads;
        this.engine = engine;
        this.tokens = tokens;
        this.progress = progress;
        this.judging = judging;
        this.symmetry = symmetry;
        this.remembersHealing = remembersHealing;
    }

    /** The same search, judging as {@code judging} says (default: every invariant, every one reported). */
    public BreadthFirstSearch judging(Judging judging) {
        return new BreadthFirstSearch(maxStates, healEvery, threads, engine, tokens, progress, judging, symmetry,
                remembersHealing);
    }

    /** The same search, on {@code engine}. */
    private BreadthFirstSearch on(Engine engine) {
        return new BreadthFirstSearch(maxStates, healEvery, threads, engine, tokens, progress, judging, symmetry,
                remembersHealing);
    }

    /**
     * The same search keeping one state per permutation of the pollers where they are interchangeable (on the packed
     * engine: {@code PollerSymmetry}); where they are not, it searches every state and its engine's name says why.
     */
    public BreadthFirstSearch overPollerSymmetry() {
        return new BreadthFirstSearch(maxStates, healEvery, threads, engine, tokens, progress, judging, true,
                remembersHealing);
    }

    /**
     * The same search with the packed engine's workers remembering where their healing runs went (exact: the same
     * result, in more or less time; the bench measures both).
     */
    public BreadthFirstSearch rememberingHealing() {
        return new BreadthFirstSearch(maxStates, healEvery, threads, engine, tokens, progress, judging, symmetry, true);
    }

    /** The most distinct states a default bound allows: the tree numbers states in an int, with room to spare. */
    static final long DEFAULT_BOUND_CAP = 200_000_000L;
    /** Bytes of heap that are not the search's: the model, the logic's memo tables, the JIT's and the CLI's objects. */
    static final long HEAP_BESIDE_THE_SEARCH = 24L << 20;
    /**
     * The least default bound: a heap too small for the full-size buffers still runs a small scenario (its
     * chunks, and so its buffers, are no bigger than its levels) and stops a big one early, INCOMPLETE.
     */
    static final int LEAST_DEFAULT_BOUND = 10_000;
    /** Successors a state may list, for the chunk buffers' size (soak averages 5.3; a buffer keeps its peak). */
    static final int SUCCESSORS_A_STATE = 8;
    /**
     * What a readable frontier state costs beside its fingerprint and tree entry (its RelayState objects, parts
     * shared with its parent counted once): mixed-big's 432 k states left 90 MiB live after the last
     * collection, 160 to 220 bytes a state; twice that, for wider levels than mixed-big's.
     */
    static final int READABLE_STATE_BYTES = 400;

    /**
     * The bound on distinct states that fits the heap: the heap less the fixed buffers, over what a stored
     * state costs at the search's peak, so a search without --max-states stops INCOMPLETE before an
     * OutOfMemoryError, and a big heap goes as far as it holds (150 bytes a state, the bound before, stopped a
     * 115 M-state soak-sized search that completed at -Xmx16g with 6 GB resident).
     */
    static int defaultMaxStates(StateSpace space) {
        return defaultMaxStates(space.wordsPerState(), Runtime.getRuntime().maxMemory());
    }

    static int defaultMaxStates(int wordsPerState, long heapBytes) {
        long free = heapBytes - HEAP_BESIDE_THE_SEARCH - chunkBufferBytes(wordsPerState);
        return (int) Math.max(LEAST_DEFAULT_BOUND, Math.min(DEFAULT_BOUND_CAP, free / bytesPerStoredState(wordsPerState)));
    }

    /**
     * What a stored state costs at the search's peak. Packed: its fingerprint in the visited set, at most 70%
     * full, 11.4 bytes, and 34.3 while a shard grows (the old array and the one twice its size), so 35; its
     * parent and step choice in the tree, 5; and its words and route in the two frontier levels a search
     * holds, neither more than a quarter of the states (soak's widest level is a tenth) and each array up to
     * twice its content: 3/4 of 8 bytes a word. Soak's 3 words make 64 bytes (20.3 stored once the search
     * ends, bench's bytes/state). Readable: the same visited set and tree, and a frontier of objects.
     */
    static long bytesPerStoredState(int wordsPerState) {
        return wordsPerState > 0 ? 35 + 5 + 6L * (wordsPerState + 1) : 35 + 5 + READABLE_STATE_BYTES;
    }

    /**
     * The two chunks' successor buffers, which a search keeps at their peak: per successor its words and route
     * (or a reference to its object), fingerprint, what it broke, its witnesses and its place in a shard's
     * lists, each array up to twice what it holds. Without this term a small heap (256 MiB) ran out of memory
     * before the bound.
     */
    static long chunkBufferBytes(int wordsPerState) {
        boolean packed = wordsPerState > 0;
        long chunk = packed ? PACKED_CHUNK : READABLE_CHUNK;
        long successor = (packed ? 8L * (wordsPerState + 1) : READABLE_STATE_BYTES) + 8 + 1 + 4 + 2 * 4;
        return 2 * chunk * SUCCESSORS_A_STATE * successor * 2;
    }

    /** Why a search stopped at its bound: the one the user gave, or the one the heap set (no --max-states given). */
    private String boundReached(int bound) {
        return maxStates > 0
                ? "stopped at the --max-states bound of " + bound + " distinct states; raise it (and -Xmx) or use random/pct search"
                : "stopped at " + bound + " distinct states, what a heap of " + Runtime.getRuntime().maxMemory() / (1 << 20)
                        + " MiB holds (no --max-states was given); raise the heap (RELAYCHECK_JAVA_OPTS=-Xmx...) or use "
                        + "random/pct search";
    }

    /** A part of a chunk: the buffer its states' successors fill, and what numbering them found. */
    private record Part(Successors out, Tally tally) {
    }

    /** Frontier states [from, to), in parts; a search keeps two, one expanding while the other is numbered. */
    private static final class Chunk {
        final List<Part> parts = new ArrayList<>();
        int from;
        int to;
    }

    /** What one part of a chunk held, from its numbering; the merging thread sums them in frontier order. */
    private static final class Tally {
        int firstState; // the part's first state in the frontier
        int firstId; // the number its first new state gets
        int numbered;
        long transitions;
        final long[] witnesses = new long[Witness.values().length];
        long healingChecks; // up to its first failing one (going on past violations: all)
        int healingFailure;
        int neverCompletes; // going on past violations: the first state whose healing run did not complete
        int breaksWhileHealing; // ... and the first whose healing run broke a safety invariant
        boolean brokenState;
        boolean stoppedAtBound;
        int violationAt;
        int violationChoice;
        // going on past violations: per invariant, the part's first successor that broke it (state id, choice)
        final int[] brokeAt = new int[INVARIANTS];
        final int[] brokeChoice = new int[INVARIANTS];
        int failedAt = -1; // the part's state (frontier index) the logic failed in; set by the expansion
        StateSpace.Failed failed;

        void reset() {
            numbered = 0;
            transitions = 0;
            Arrays.fill(witnesses, 0);
            healingChecks = 0;
            healingFailure = -1;
            neverCompletes = -1;
            breaksWhileHealing = -1;
            brokenState = false;
            stoppedAtBound = false;
            violationAt = -1;
            Arrays.fill(brokeAt, -1);
        }

        /** Notes that successor {@code j} of state {@code id}, its step {@code choice}, broke {@code invariants}. */
        void broke(int id, int choice, int invariants) {
            for (int m = invariants; m != 0; m &= m - 1) {
                int i = Integer.numberOfTrailingZeros(m);
                if (brokeAt[i] < 0) {
                    brokeAt[i] = id;
                    brokeChoice[i] = choice;
                }
            }
        }
    }

    /** The search's mutable bookkeeping, owned by the merging thread. */
    private static final class Run {
        final VisitedSet visited;
        final StateTree tree = new StateTree();
        StateSpace space; // the space searched, which turns stored choices into a concrete path
        PhaseTimes.CrewCounts crew = PhaseTimes.CrewCounts.NONE;
        long healingRemembered;
        final long[] witnesses = new long[Witness.values().length];
        long transitions;
        long healingChecks;
        int healingFailure = -1;
        int neverCompletes = -1; // going on past violations: the first state whose healing run did not complete
        int breaksWhileHealing = -1; // ... and the first whose healing run broke a safety invariant
        int brokenStates; // ending at its first violation, a state breaking a state invariant is counted, not stored
        Counterexample found;
        // going on past violations: per invariant, the first step in search order that broke it (state id, choice)
        final int[] brokeAt = new int[INVARIANTS];
        final int[] brokeChoice = new int[INVARIANTS];
        int judgedSafety; // the judged invariants a step can break, a bit per ordinal
        boolean judgesLiveness;
        boolean everyInvariant;
        LogicFault fault;
        String incomplete;
        final long[][] work; // per thread and task (EXPANDING, ADDING, NUMBERING), nanoseconds, for the bench

        int aloneBelow; // frontier states below which a pipeline step runs on one thread

        Run(int shards, int threads, Judging judging) {
            visited = new VisitedSet(shards);
            work = new long[threads][TASK_KINDS];
            Arrays.fill(brokeAt, -1);
            everyInvariant = judging.everyInvariant();
            judgesLiveness = judging.judges(Invariant.EVENTUAL_DELIVERY);
            judgedSafety = judging.mask() & ~(1 << Invariant.EVENTUAL_DELIVERY.ordinal());
        }

        /** The judged invariants found broken so far, a bit per ordinal. */
        int brokenMask() {
            int m = 0;
            for (int i = 0; i < INVARIANTS; i++) {
                m |= brokeAt[i] >= 0 ? 1 << i : 0;
            }
            return m;
        }

        PhaseTimes phaseTimes() {
            long[] sum = new long[TASK_KINDS];
            for (long[] w : work) {
                for (int task = 0; task < TASK_KINDS; task++) {
                    sum[task] += w[task];
                }
            }
            return new PhaseTimes(sum[EXPANDING], sum[ADDING], sum[NUMBERING], crew, healingRemembered);
        }

        /**
         * Whether the search goes on: no fault, no bound; and no violation, or, going on past them, some judged
         * invariant not yet found (EVENTUAL_DELIVERY included, until a healing run fails).
         */
        boolean going() {
            if (fault != null || incomplete != null) {
                return false;
            }
            return everyInvariant ? (brokenMask() & judgedSafety) != judgedSafety || neverCompletes < 0 && judgesLiveness
                    : found == null;
        }
    }

    /**
     * Searches {@code logic} on {@code scenario} with the fastest engine that takes it, then re-asks a user's
     * logic every question it was asked ({@link SearchResult#rechecked}).
     */
    public SearchResult search(RelayLogic logic, Scenario scenario) {
        SearchResult found = searchOnce(logic, scenario).rechecked();
        if (symmetry && !found.engine().startsWith("packed")) { // symmetry is the packed engine's: say it searched every state
            return found.withEngine(found.engine() + " (every state: symmetry over pollers runs on the packed engine only)");
        }
        return found;
    }

    private SearchResult searchOnce(RelayLogic logic, Scenario scenario) {
        if (!judging.all() && engine != Engine.READABLE && tokens != Tokens.CANONICAL) {
            return searchSome(logic, scenario);
        }
        Optional<SearchResult> asReference = asReferenceLogic(logic, scenario);
        if (asReference.isPresent()) {
            return asReference.get();
        }
        RelayModel model = new RelayModel(CheckedLogic.of(logic), scenario);
        if (tokens == Tokens.CANONICAL) {
            Optional<PackedSpace> renumbering = engine == Engine.READABLE ? Optional.empty() : PackedSpace.renumbering(model);
            if (renumbering.isPresent()) {
                try {
                    return searchRenumbered(model, renumbering.get(), "");
                } catch (Fallback f) {
                    if (engine == Engine.PACKED) {
                        throw new UsageException("the packed engine cannot renumber this logic's tokens: " + f.getMessage());
                    }
                    return search(model, new ReadableSpace(model, true)).withEngine("readable, tokens renumbered canonically ("
                            + f.getMessage() + ")");
                }
            }
            if (engine == Engine.PACKED) {
                throw new UsageException("the packed engine does not take logic " + logic.id() + " on scenario "
                        + scenario.name() + ": " + PackedSpace.whyNot(model));
            }
            return search(model, new ReadableSpace(model, true)).withEngine("readable, tokens renumbered canonically");
        }
        try {
            return searchExact(model);
        } catch (TokensOutgrown outgrown) {
            return search(model, new ReadableSpace(model, true)).withEngine("readable, tokens renumbered canonically ("
                    + outgrown.getMessage() + ")");
        }
    }

    /**
     * A search of some invariants: a search of all, on the fastest engine, finds the same where nothing it does not
     * judge broke (nothing was left unexpanded that this one expands); else the readable model, which can expand a
     * state past a violation, searches again judging those alone.
     */
    private SearchResult searchSome(RelayLogic logic, Scenario scenario) {
        SearchResult all = judging(new Judging(EnumSet.allOf(Invariant.class), judging.everyInvariant())).searchOnce(logic, scenario);
        List<Invariant> others = all.violatedInvariants().stream().filter(i -> !judging.judges(i)).toList();
        if (others.isEmpty()) {
            return all.withJudged(judging.invariants());
        }
        SearchResult some = on(Engine.READABLE).searchOnce(logic, scenario);
        return some.withEngine(some.engine() + " (" + others.stream().map(Enum::name).collect(java.util.stream.Collectors.joining(", "))
                + ", not judged here, broke on the " + all.engine() + " engine, which cannot go on past a violation)");
    }

    /**
     * A lease, settle or timing variant in a scenario without its hazard takes the reference logic's steps to the
     * same states ({@link BrokenVariant#exercisedBy}; {@code TimingHazardsSearchTest} compares the two searches):
     * the reference logic is searched in its place, on the packed engine where it takes it, and the result is
     * the variant's ({@code --engine readable} searches the variant itself). Should the reference logic not pass there (a scenario of the user's), the variant is searched.
     */
    private Optional<SearchResult> asReferenceLogic(RelayLogic logic, Scenario scenario) {
        if (engine == Engine.READABLE || !(logic instanceof BrokenVariant v) || v.exercisedBy(scenario)
                || LogicCatalogue.byId(v.id()).filter(c -> c.getClass() == v.getClass()).isEmpty()) {
            return Optional.empty();
        }
        SearchResult reference = searchOnce(LogicCatalogue.correct(), scenario);
        if (!reference.passed()) {
            return Optional.empty();
        }
        return Optional.of(reference.withLogic(logic).withEngine(reference.engine() + " (" + v.id()
                + " searched as the reference logic: this scenario never asks the decision it changes)"));
    }

    private SearchResult searchExact(RelayModel model) {
        RelayLogic logic = model.logic();
        Scenario scenario = model.scenario();
        Optional<PackedSpace> packed = engine == Engine.READABLE ? Optional.empty() : PackedSpace.of(model);
        if (engine == Engine.PACKED && packed.isEmpty()) {
            throw new UsageException("the packed engine does not take logic " + logic.id() + " on scenario "
                    + scenario.name() + ": " + PackedSpace.whyNot(model));
        }
        if (packed.isPresent()) {
            try {
                SearchResult found = searchPacked(model, packed.get());
                if (found.logicFault().isEmpty()) { // after the search, which a logic with hidden state must meet first
                    packed.get().probeAgreement();
                }
                return found;
            } catch (Fallback overflow) {
                Optional<PackedSpace> renumbering = overflow instanceof Overflow o && o.tokens() && tokens == Tokens.AUTO
                        ? PackedSpace.renumbering(model) : Optional.empty();
                if (renumbering.isPresent()) {
                    try {
                        return searchRenumbered(model, renumbering.get(), " (exact tokens outgrew the packed encoding: "
                                + overflow.getMessage() + ")");
                    } catch (Fallback again) {
                        overflow = again; // a logic that reads token values, or a field past its bound even renumbered
                    }
                }
                if (engine == Engine.PACKED) {
                    throw new UsageException("the packed engine overflowed: " + overflow.getMessage());
                }
                return search(model, new ReadableSpace(model)).withEngine("readable (the packed encoding overflowed: "
                        + overflow.getMessage() + ")");
            }
        }
        SearchResult readable = search(model, new ReadableSpace(model));
        boolean shipped = LogicCatalogue.byId(logic.id()).filter(l -> l.getClass() == logic.getClass()).isPresent();
        if (engine == Engine.AUTO && (shipped || !PackedSpace.unmodelledHazard(model).isEmpty())) {
            // a shipped logic, or a scenario with lease, settle or timing hazards, that the packed engine declines: say so in one line
            return readable.withEngine("readable (the packed engine declined: " + PackedSpace.whyNot(model) + ")");
        }
        return readable;
    }

    /**
     * A search on the packed engine with tokens renumbered canonically, then the probe that holds its decisions, on
     * renumbered states, to the readable model's on exact ones: a logic that reads token values falls back.
     */
    private SearchResult searchRenumbered(RelayModel model, PackedSpace space, String why) {
        SearchResult found = searchPacked(model, space);
        if (found.logicFault().isEmpty()) {
            space.probeAgreement();
        }
        return found.withEngine(found.engine().replaceFirst("^packed", "packed, tokens renumbered canonically" + why));
    }

    /** A packed search, over poller symmetry where asked and the pollers are interchangeable; its engine's name says which. */
    private SearchResult searchPacked(RelayModel model, PackedSpace space) {
        if (remembersHealing) {
            space.rememberingHealing();
        }
        if (!symmetry) {
            return search(model, space);
        }
        String why = space.whyNotSymmetric();
        if (!why.isEmpty()) {
            return search(model, space).withEngine(space.engine() + " (every state: pollers are not interchangeable: " + why + ")");
        }
        return search(model, space.overPollers()).withEngine(space.engine() + ", symmetric over pollers");
    }

    private SearchResult search(RelayModel model, StateSpace space) {
        long start = System.nanoTime();
        int bound = maxStates > 0 ? maxStates : defaultMaxStates(space);
        int parts = threads == 1 ? 1 : PARTS_PER_THREAD * threads;
        int shards = threads;
        Run run = new Run(shards, threads, judging);
        run.space = space;
        run.aloneBelow = ALONE_BELOW_SET >= 0 ? ALONE_BELOW_SET
                : space.wordsPerState() > 0 ? PACKED_ALONE_BELOW : READABLE_ALONE_BELOW;
        StateSpace.Level frontier = space.initial();
        StateSpace.Level next = space.newLevel();
        long initial = frontier.fingerprint(0);
        run.visited.shard(VisitedSet.shardOf(initial, shards)).add(initial);
        // a level's states are numbered in the order they are stored, so state i of a level has number first + i
        int frontierFirst = run.tree.extend(1);
        run.tree.put(0, -1, 0);
        int depth = 0;
        int stride = space.wordsPerState();
        int chunkSize = stride > 0 ? PACKED_CHUNK : READABLE_CHUNK;
        List<StateSpace.Expander> expanders = new ArrayList<>(); // one a thread: each keeps scratch buffers
        for (int t = 0; t < threads; t++) {
            expanders.add(space.expander(judging));
        }
        Chunk[] chunks = {new Chunk(), new Chunk()};
        for (Chunk c : chunks) {
            for (int p = 0; p < parts; p++) {
                c.parts.add(new Part(new Successors(stride, shards, judging.everyInvariant()), new Tally()));
            }
        }
        // the readable space skips judging a successor the visited set holds; while other threads add to the
        // set that answer could change under it, so with more than one thread it judges every successor
        LongPredicate known = threads == 1 ? run.visited::contains : fingerprint -> false;
        String task = "bfs " + model.logic().id() + "/" + model.scenario().name();
        // the tests' -Drelaycheck.search.aloneBelow=0 keeps every step on every thread: no adapting either
        try (Crew crew = new Crew(threads, "relaycheck-bfs", ALONE_BELOW_SET != 0)) { // this thread is the first worker
            while (frontier.size() > 0 && run.going()) {
                int nextFirst = run.tree.size();
                Chunk expanded = null; // its successors wait for the visited set; a level's last one drains alone
                for (int from = 0; run.going() && (from < frontier.size() || expanded != null); from += chunkSize) {
                    Chunk expanding = from < frontier.size() ? chunks[(from / chunkSize) % 2] : null;
                    if (expanding != null) {
                        expanding.from = from;
                        expanding.to = Math.min(frontier.size(), from + chunkSize);
                    }
                    addThenExpand(crew, expanders, run, expanded, expanding, frontier, frontierFirst, known);
                    if (expanded != null) {
                        merge(crew, model, run, bound, expanded, frontierFirst, next, nextFirst);
                        progress.update(task, run.tree.size(), run.transitions, depth);
                    }
                    expanded = expanding;
                }
                StateSpace.Level done = frontier; // its memory serves the level after next
                frontier = next;
                next = done;
                next.truncate(0);
                frontierFirst = nextFirst;
                outgrowsExactTokens(model, space, run, frontier, depth + 1);
                if (frontier.size() > 0) {
                    depth++;
                }
            }
            run.crew = crew.counts();
            run.healingRemembered = expanders.stream().mapToLong(StateSpace.Expander::healingRunsRemembered).sum();
        }
        List<Counterexample> found = new ArrayList<>();
        if (run.everyInvariant) {
            found.addAll(everyCounterexample(model, run, space.renumbersTokens()));
        } else if (run.found == null && run.fault == null && run.healingFailure >= 0) {
            // the first failing healing run in search order, whatever the threads; a bound met later does not
            // make it less real, so it is reported rather than INCOMPLETE
            String stopped = run.incomplete == null ? "" : " (healing failed before the search "
                    + run.incomplete.split(";")[0] + ")";
            counterexampleOrFault(model, run, run.healingFailure, -1, true, space.renumbersTokens(), "bfs" + stopped);
            run.incomplete = null;
        }
        if (!run.everyInvariant && run.found != null) {
            found.add(run.found);
        }
        Map<Witness, Long> witnesses = new EnumMap<>(Witness.class);
        for (Witness w : Witness.values()) {
            if (run.witnesses[w.ordinal()] > 0) {
                witnesses.put(w, run.witnesses[w.ordinal()]);
            }
        }
        return new SearchResult("bfs", space.engine(), model.logic(), model.scenario(), run.tree.size() + run.brokenStates,
                run.transitions, depth, 0, run.healingChecks, System.nanoTime() - start, witnesses,
                run.fault == null ? found : List.of(), Optional.ofNullable(run.incomplete), run.visited.bytes() + run.tree.bytes(),
                run.phaseTimes(), Optional.ofNullable(run.fault), judging.invariants());
    }

    /**
     * One step of the pipeline, as one set of tasks: each shard of the visited set takes the successors of
     * {@code added} (if any) that fall in it, in frontier order, listing which are new; and the parts of
     * {@code expanding} (if any) are expanded. The shards' tasks are spread among the parts', so that while one
     * thread adds, waiting on main memory, another tends to expand (a single shard added before any part, as
     * before, ran soak's two threads about a tenth slower).
     */
    private void addThenExpand(Crew crew, List<StateSpace.Expander> expanders, Run run, Chunk added, Chunk expanding,
                               StateSpace.Level frontier, int frontierFirst, LongPredicate known) {
        int shards = added == null ? 0 : run.visited.shards();
        int parts = expanding == null ? 0 : expanding.parts.size();
        int per = expanding == null ? 0 : (expanding.to - expanding.from + parts - 1) / parts; // states a part
        // decided before the chunk before is numbered: a chunk may heal after the first failing healing run was
        // found, but the tallies after that one are not counted
        boolean heal = run.everyInvariant ? run.neverCompletes < 0 || run.breaksWhileHealing < 0 : run.healingFailure < 0;
        int[] order = new int[shards + parts]; // the tasks in the order they are taken: shard s as -1 - s, parts as themselves
        for (int k = 0, shard = 0, part = 0; k < order.length; k++) {
            boolean add = shard < shards && (part >= parts || (long) shard * parts <= (long) part * shards);
            order[k] = add ? -1 - shard++ : part++;
        }
        int work = (added == null ? 0 : added.to - added.from) + (expanding == null ? 0 : expanding.to - expanding.from);
        crew.forEach(order.length, (member, k) -> {
            long start = System.nanoTime();
            if (order[k] < 0) {
                for (Part p : added.parts) {
                    p.out().addToShard(run.visited, -1 - order[k]);
                }
                run.work[member][ADDING] += System.nanoTime() - start;
            } else {
                int lo = Math.min(expanding.to, expanding.from + order[k] * per);
                expandRange(expanders.get(member), expanding.parts.get(order[k]), frontier, frontierFirst, lo,
                        Math.min(expanding.to, lo + per), heal, known);
                run.work[member][EXPANDING] += System.nanoTime() - start;
            }
        }, work < run.aloneBelow);
    }

    /** Runs in a worker: writes only its part, and reads nothing another thread writes meanwhile. */
    private void expandRange(StateSpace.Expander expander, Part part, StateSpace.Level frontier, int frontierFirst,
                             int from, int to, boolean heal, LongPredicate known) {
        Successors out = part.out();
        out.clear();
        Tally tally = part.tally();
        tally.firstState = from;
        tally.failedAt = -1;
        tally.failed = null;
        for (int i = from; i < to; i++) {
            expander.expand(frontier, i, known, out);
            boolean healed = heal && expander.failed().isEmpty() && (out.open() == 0 || (frontierFirst + i) % healEvery == 0);
            out.endState(healed, healed ? expander.healingFromLast() : HealingOutcome.HEALS);
            if (expander.failed().isPresent()) { // the logic broke its contract: no later state of the part counts
                tally.failedAt = i;
                tally.failed = expander.failed().get();
                return;
            }
        }
    }

    /**
     * Numbers the chunk's new states in frontier order, counts, and stops at the first violation or the bound.
     * The new states of each part are counted already, so each part's first number is known: the workers
     * number and store the parts' new states at once, then this thread sums their tallies in frontier order,
     * up to the first part that stopped.
     */
    private void merge(Crew crew, RelayModel model, Run run, int bound, Chunk chunk, int frontierFirst,
                       StateSpace.Level next, int nextFirst) {
        int fresh = 0;
        for (Part p : chunk.parts) {
            p.tally().firstId = run.tree.size() + fresh;
            fresh += p.out().freshCount();
        }
        run.tree.extend(fresh);
        next.extend(fresh);
        crew.forEach(chunk.parts.size(), (member, p) -> {
            long start = System.nanoTime();
            number(chunk.parts.get(p), run.tree, bound, frontierFirst, next, nextFirst);
            run.work[member][NUMBERING] += System.nanoTime() - start;
        }, fresh < run.aloneBelow);
        for (Part p : chunk.parts) {
            Tally tally = p.tally();
            run.transitions += tally.transitions;
            for (int bit = 0; bit < run.witnesses.length; bit++) {
                run.witnesses[bit] += tally.witnesses[bit];
            }
            if (run.everyInvariant) {
                run.healingChecks += tally.healingChecks;
                run.neverCompletes = run.neverCompletes >= 0 ? run.neverCompletes : tally.neverCompletes;
                run.breaksWhileHealing = run.breaksWhileHealing >= 0 ? run.breaksWhileHealing : tally.breaksWhileHealing;
            } else if (run.healingFailure < 0) {
                run.healingChecks += tally.healingChecks;
                run.healingFailure = tally.healingFailure;
            }
            run.brokenStates |= tally.brokenState ? 1 : 0;
            for (int i = 0; i < INVARIANTS; i++) {
                if (run.brokeAt[i] < 0 && tally.brokeAt[i] >= 0) {
                    run.brokeAt[i] = tally.brokeAt[i];
                    run.brokeChoice[i] = tally.brokeChoice[i];
                }
            }
            if (tally.stoppedAtBound) {
                run.incomplete = boundReached(bound);
            } else if (tally.violationAt >= 0) {
                counterexampleOrFault(model, run, tally.violationAt, tally.violationChoice, false, false, "bfs");
            } else if (tally.failed != null) {
                run.fault = fault(model, run.space, run.tree, frontierFirst + tally.failedAt, tally.failed);
            }
            if (!run.going()) { // room was made for the whole chunk's new states: keep those numbered
                run.tree.truncate(tally.firstId + tally.numbered);
                next.truncate(tally.firstId + tally.numbered - nextFirst);
                return;
            }
        }
    }

    /**
     * Runs in a worker: gives the new successors of a part the numbers from its first on, in order, storing
     * each in the tree and the next level, and counts transitions, witnesses and healing runs. Writes only the
     * part's tally and the entries its numbers name.
     */
    private void number(Part part, StateTree tree, int bound, int frontierFirst, StateSpace.Level next,
                        int nextFirst) {
        Successors successors = part.out();
        Tally tally = part.tally();
        tally.reset();
        boolean every = judging.everyInvariant();
        if (!every && successors.firstBreak() >= 0 || tally.firstId + successors.freshCount() > bound) {
            numberUntilStop(successors, tally, tree, bound, frontierFirst, next, nextFirst, every);
            return;
        }
        for (int b = 0, k = 0; b < successors.breakingCount(); b++) { // going on past violations: note each
            int j = successors.breaking(b);
            while (successors.to(k) <= j) {
                k++;
            }
            tally.broke(frontierFirst + tally.firstState + k, j - successors.from(k), successors.invariants(j));
        }
        // the search goes on past this part: its counts are the expansion's, and only new successors need a visit
        tally.transitions = successors.size();
        for (int bit = 0; bit < tally.witnesses.length; bit++) {
            tally.witnesses[bit] = successors.witnessCount(bit);
        }
        tally.healingChecks = every ? successors.healedCount() : successors.healedThroughFailure();
        if (successors.firstHealingFailure() >= 0) {
            tally.healingFailure = frontierFirst + tally.firstState + successors.firstHealingFailure();
        }
        if (successors.firstNeverCompletes() >= 0) {
            tally.neverCompletes = frontierFirst + tally.firstState + successors.firstNeverCompletes();
        }
        if (successors.firstBreaksWhileHealing() >= 0) {
            tally.breaksWhileHealing = frontierFirst + tally.firstState + successors.firstBreaksWhileHealing();
        }
        int k = 0; // the state whose successor j is
        for (int j = successors.nextFresh(); j >= 0; j = successors.nextFresh()) {
            while (successors.to(k) <= j) {
                k++;
            }
            int newId = tally.firstId + tally.numbered;
            tree.put(newId, frontierFirst + tally.firstState + k, j - successors.from(k));
            next.put(newId - nextFirst, successors, j);
            tally.numbered++;
        }
    }

    /**
     * {@link #number} for a part the search stops in, at its first violation (unless it goes on past them) or at the
     * bound: visits every successor in order, counting only up to the one it stops at.
     */
    private static void numberUntilStop(Successors successors, Tally tally, StateTree tree, int bound, int frontierFirst,
                                        StateSpace.Level next, int nextFirst, boolean every) {
        int fresh = successors.nextFresh();
        int f = tally.firstState;
        for (int k = 0; k < successors.states(); k++, f++) {
            int id = frontierFirst + f;
            if (every && successors.healed(k)) {
                tally.healingChecks++;
                int healing = successors.healing(k);
                if (healing == HealingOutcome.NEVER_COMPLETES && tally.neverCompletes < 0) {
                    tally.neverCompletes = id;
                } else if (healing == HealingOutcome.BREAKS_WHILE_HEALING && tally.breaksWhileHealing < 0) {
                    tally.breaksWhileHealing = id;
                }
            } else if (successors.healed(k) && tally.healingFailure < 0) {
                tally.healingChecks++;
                if (successors.healingFailed(k)) {
                    tally.healingFailure = id;
                }
            }
            int first = successors.from(k);
            for (int j = first; j < successors.to(k); j++) {
                tally.transitions++;
                for (int w = successors.witnesses(j), bit = 0; w != 0; w >>>= 1, bit++) {
                    tally.witnesses[bit] += w & 1;
                }
                byte breaks = successors.breaks(j);
                if (breaks == Successors.BREAKS_STATE) {
                    tally.brokenState = !every;
                } else if (j == fresh) {
                    fresh = successors.nextFresh();
                    int newId = tally.firstId + tally.numbered;
                    if (newId >= bound) {
                        tally.stoppedAtBound = true;
                        return;
                    }
                    tree.put(newId, id, j - first);
                    next.put(newId - nextFirst, successors, j);
                    tally.numbered++;
                }
                if (breaks != Successors.NONE && every) {
                    tally.broke(id, j - first, successors.invariants(j));
                } else if (breaks != Successors.NONE) {
                    tally.violationAt = id;
                    tally.violationChoice = j - first;
                    return;
                }
            }
        }
    }

    /**
     * With exact tokens, stops the search (to start again renumbered) once a completed level holds a state whose
     * last token passes what a lease-respecting relay can issue: such a space need not close. Checked on stored
     * states of a whole level only, so whether it happens does not depend on the threads.
     */
    private void outgrowsExactTokens(RelayModel model, StateSpace space, Run run, StateSpace.Level level, int depth) {
        if (tokens != Tokens.AUTO || space.renumbersTokens() || !run.going()) {
            return;
        }
        long bound = CanonicalTokens.exactBound(model.scenario(), model.maxTicks());
        long max = level.maxLastToken();
        if (max > bound) {
            throw new TokensOutgrown("the exact space reached token t" + max + " at depth " + depth + ", past the t"
                    + bound + " a relay whose leases last can issue here");
        }
    }

    /**
     * The counterexample through state {@code id}, or, for a logic that answers differently when the path is
     * rebuilt, where it did.
     */
    private void counterexampleOrFault(RelayModel model, Run run, int id, int lastChoice, boolean liveness,
                                       boolean renumbered, String foundBy) {
        try {
            run.found = counterexamples(model, run.space, run.tree, id, lastChoice, liveness, renumbered, foundBy, false).get(0);
        } catch (RebuildFailed f) {
            run.fault = f.fault;
        }
    }

    /**
     * Going on past violations: each invariant found broken, with the path to the first step in search order that
     * broke it, so its shortest; shortest first, and the invariants one step broke in the order the judge lists
     * them (so the first is the one a search that ends at its first violation reports). Empty, and the fault set,
     * for a logic that answers differently when a path is rebuilt.
     */
    private List<Counterexample> everyCounterexample(RelayModel model, Run run, boolean renumbered) {
        if (run.fault != null) {
            return List.of();
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < INVARIANTS; i++) {
            if (run.brokeAt[i] >= 0) {
                order.add(i);
            }
        }
        order.sort(java.util.Comparator.<Integer>comparingInt(i -> run.brokeAt[i]).thenComparingInt(i -> run.brokeChoice[i]));
        List<Counterexample> out = new ArrayList<>();
        try {
            for (int k = 0; k < order.size(); ) {
                int id = run.brokeAt[order.get(k)];
                int choice = run.brokeChoice[order.get(k)];
                List<Invariant> here = new ArrayList<>(); // the invariants this one step broke first
                for (; k < order.size() && run.brokeAt[order.get(k)] == id && run.brokeChoice[order.get(k)] == choice; k++) {
                    here.add(Invariant.values()[order.get(k)]);
                }
                for (Counterexample c : counterexamples(model, run.space, run.tree, id, choice, false, renumbered, "bfs", true)) {
                    if (here.remove(c.invariant())) {
                        out.add(c);
                    }
                }
                if (!here.isEmpty()) {
                    throw new IllegalStateException("internal error: the rebuilt path does not reproduce " + here
                            + " (non-deterministic logic?)");
                }
            }
            // healing runs: the first that never completed (EVENTUAL_DELIVERY), and the first that broke a safety
            // invariant the search did not (past the scenario's tick bound, where the search does not go)
            for (int id : new int[] {run.neverCompletes, run.breaksWhileHealing}) {
                if (id >= 0 && run.fault == null) {
                    String stopped = run.incomplete == null ? "" : " (healing failed before the search "
                            + run.incomplete.split(";")[0] + ")";
                    Counterexample c = counterexamples(model, run.space, run.tree, id, -1, true, renumbered, "bfs" + stopped, false).get(0);
                    if (out.stream().noneMatch(o -> o.invariant() == c.invariant())) {
                        out.add(c);
                    }
                }
            }
        } catch (RebuildFailed f) {
            run.fault = f.fault;
            return List.of();
        }
        return out;
    }

    /** The logic failed while a path was rebuilt from the stored choices. */
    private static final class RebuildFailed extends RuntimeException {
        final transient LogicFault fault;

        RebuildFailed(LogicFault fault) {
            super(fault.failure().line(), null, false, false);
            this.fault = fault;
        }
    }

    /** The steps to state {@code id} from the stored choices, then the one {@code lastChoice} picks (-1: none). */
    private static List<Step> path(RelayModel model, StateSpace space, StateTree tree, int id, int lastChoice, boolean liveness) {
        List<Integer> choices = new ArrayList<>();
        for (int at = id; at > 0; at = tree.parent(at)) {
            choices.add(tree.choice(at));
        }
        Collections.reverse(choices);
        if (lastChoice >= 0) {
            choices.add(lastChoice);
        }
        choices = space.concreteChoices(choices, liveness);
        List<Step> path = new ArrayList<>();
        RelayState s = model.initial();
        Step taking = null;
        try {
            for (int choice : choices) {
                taking = null;
                Step step = model.enabled(s).get(choice);
                taking = step;
                s = model.applyEnabled(s, step).state();
                path.add(step);
            }
        } catch (LogicFailure f) {
            throw new RebuildFailed(LogicFault.of(model, path, taking == null ? LogicFault.Doing.LISTING_STEPS
                    : LogicFault.Doing.TAKING_STEP, Optional.ofNullable(taking), f, OptionalLong.empty(), "bfs"));
        }
        return path;
    }

    /** The fault the expansion of state {@code id} met, with the path to that state. */
    private static LogicFault fault(RelayModel model, StateSpace space, StateTree tree, int id, StateSpace.Failed failed) {
        try {
            return LogicFault.of(model, path(model, space, tree, id, -1, false), failed.doing(), failed.step(), failed.failure(),
                    OptionalLong.empty(), "bfs");
        } catch (RebuildFailed f) {
            return f.fault;
        }
    }

    /**
     * Rebuilds the path to state {@code id} from the stored choices, then takes step {@code lastChoice} (-1: none),
     * and judges it: a counterexample for each invariant its last step broke, in the judge's order (the first alone
     * unless {@code every}).
     */
    private List<Counterexample> counterexamples(RelayModel model, StateSpace space, StateTree tree, int id, int lastChoice,
                                                 boolean liveness, boolean renumbered, String foundBy, boolean every) {
        List<Step> path = path(model, space, tree, id, lastChoice, liveness);
        Judge.Judgement j;
        try {
            j = Judge.judge(model, path, liveness, judging.invariants());
        } catch (LogicFailure f) {
            throw new RebuildFailed(LogicFault.of(model, path, LogicFault.Doing.HEALING, Optional.empty(), f,
                    OptionalLong.empty(), "bfs"));
        }
        if (j.violation().isEmpty()) {
            throw new IllegalStateException("internal error: the rebuilt path does not reproduce the violation "
                    + "(non-deterministic logic?" + (renumbered ? " or one that looks at token values: try --tokens exact" : "") + ")");
        }
        return (every ? j.violations() : j.violations().subList(0, 1)).stream().map(v -> new Counterexample(model.logic(),
                model.scenario(), v, path, j.trace(), OptionalLong.empty(), foundBy)).toList();
    }
}
