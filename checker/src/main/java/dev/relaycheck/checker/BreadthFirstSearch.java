package dev.relaycheck.checker;

import dev.relaycheck.checker.packed.PackedSpace;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongPredicate;

/**
 * Exhaustive breadth-first search with fingerprint-based duplicate detection. Transition invariants are
 * checked on every transition, state invariants on every new state, so the first violation found is at the
 * smallest depth: a shortest counterexample. EVENTUAL_DELIVERY is checked by a healing run from every
 * state without successors and from every {@code healEvery}-th new state; what healing finds is reported
 * only if the whole space holds no safety violation, so a safety counterexample is always a shortest one.
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
     * taken is short, for the other thread waits for it. On soak's two threads, 32 (about half a millisecond a
     * part) left the threads waiting 0.42 thread seconds a search against 0.98 with 4, and the median search
     * took 6.47 s against 6.99 (3 interleaved runs each, 16 in between on both counts).
     */
    private static final int PARTS_PER_THREAD = 32;

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

    /** Pass as max states for the bound the heap holds with the engine chosen. */
    public static final int HEAP_BOUND = 0;

    private final int maxStates;
    private final int healEvery;
    private final int threads;
    private final Engine engine;
    private final Progress progress;

    public BreadthFirstSearch(int maxStates, int healEvery, Progress progress) {
        this(maxStates, healEvery, 1, progress);
    }

    public BreadthFirstSearch(int maxStates, int healEvery, int threads, Progress progress) {
        this(maxStates, healEvery, threads, Engine.AUTO, progress);
    }

    public BreadthFirstSearch(int maxStates, int healEvery, int threads, Engine engine, Progress progress) {
        if (maxStates < 0 || healEvery < 1 || threads < 1) {
            throw new IllegalArgumentException("max states must be >= 0, heal-every and threads >= 1");
        }
        this.maxStates = maxStates;
        this.healEvery = healEvery;
        this.threads = threads;
        this.engine = engine;
        this.progress = progress;
    }

    /**
     * The bound on distinct states that fits the heap. A readable frontier holds whole states (hundreds of
     * bytes each); a packed one holds a few longs, so the table and the frontier together stay near 100 bytes.
     */
    static int defaultMaxStates(StateSpace space) {
        long perState = space.wordsPerState() > 0 ? 150 : 600; // with margin for the frontier's peak
        return (int) Math.min(200_000_000L, Runtime.getRuntime().maxMemory() / perState);
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
        long healingChecks; // up to its first failing one
        int healingFailure;
        boolean brokenState;
        boolean stoppedAtBound;
        int violationAt;
        int violationChoice;

        void reset() {
            numbered = 0;
            transitions = 0;
            Arrays.fill(witnesses, 0);
            healingChecks = 0;
            healingFailure = -1;
            brokenState = false;
            stoppedAtBound = false;
            violationAt = -1;
        }
    }

    /** The search's mutable bookkeeping, owned by the merging thread. */
    private static final class Run {
        final VisitedSet visited;
        final StateTree tree = new StateTree();
        final long[] witnesses = new long[Witness.values().length];
        long transitions;
        long healingChecks;
        int healingFailure = -1;
        int brokenStates; // a state breaking a state invariant is counted but not stored: the search ends there
        Counterexample found;
        String incomplete;
        final long[][] work; // per thread and task (EXPANDING, ADDING, NUMBERING), nanoseconds, for the bench

        Run(int shards, int threads) {
            visited = new VisitedSet(shards);
            work = new long[threads][TASK_KINDS];
        }

        PhaseTimes phaseTimes() {
            long[] sum = new long[TASK_KINDS];
            for (long[] w : work) {
                for (int task = 0; task < TASK_KINDS; task++) {
                    sum[task] += w[task];
                }
            }
            return new PhaseTimes(sum[EXPANDING], sum[ADDING], sum[NUMBERING]);
        }

        boolean going() {
            return found == null && incomplete == null;
        }
    }

    /** Searches {@code logic} on {@code scenario} with the fastest engine that takes it. */
    public SearchResult search(RelayLogic logic, Scenario scenario) {
        RelayModel model = new RelayModel(logic, scenario);
        Optional<PackedSpace> packed = engine == Engine.READABLE ? Optional.empty() : PackedSpace.of(model);
        if (engine == Engine.PACKED && packed.isEmpty()) {
            throw new UsageException("the packed engine does not take logic " + logic.id() + " on scenario "
                    + scenario.name() + ": " + PackedSpace.whyNot(model));
        }
        if (packed.isPresent()) {
            try {
                return search(model, packed.get());
            } catch (PackedSpace.Overflow overflow) {
                if (engine == Engine.PACKED) {
                    throw new UsageException("the packed engine overflowed: " + overflow.getMessage());
                }
                return search(model, new ReadableSpace(model)).withEngine("readable (the packed encoding overflowed: "
                        + overflow.getMessage() + ")");
            }
        }
        return search(model, new ReadableSpace(model));
    }

    private SearchResult search(RelayModel model, StateSpace space) {
        long start = System.nanoTime();
        int bound = maxStates > 0 ? maxStates : defaultMaxStates(space);
        int parts = threads == 1 ? 1 : PARTS_PER_THREAD * threads;
        int shards = threads;
        Run run = new Run(shards, threads);
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
            expanders.add(space.expander());
        }
        Chunk[] chunks = {new Chunk(), new Chunk()};
        for (Chunk c : chunks) {
            for (int p = 0; p < parts; p++) {
                c.parts.add(new Part(new Successors(stride, shards), new Tally()));
            }
        }
        // the readable space skips judging a successor the visited set holds; while other threads add to the
        // set that answer could change under it, so with more than one thread it judges every successor
        LongPredicate known = threads == 1 ? run.visited::contains : fingerprint -> false;
        String task = "bfs " + model.logic().id() + "/" + model.scenario().name();
        try (Crew crew = new Crew(threads, "relaycheck-bfs")) { // this thread is the first worker
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
                if (frontier.size() > 0) {
                    depth++;
                }
            }
        }
        if (run.going() && run.healingFailure >= 0) {
            run.found = counterexample(model, run.tree, run.healingFailure, -1, true);
        }
        Map<Witness, Long> witnesses = new EnumMap<>(Witness.class);
        for (Witness w : Witness.values()) {
            if (run.witnesses[w.ordinal()] > 0) {
                witnesses.put(w, run.witnesses[w.ordinal()]);
            }
        }
        return new SearchResult("bfs", space.engine(), model.logic(), model.scenario(), run.tree.size() + run.brokenStates,
                run.transitions, depth, 0, run.healingChecks, System.nanoTime() - start, witnesses,
                Optional.ofNullable(run.found), Optional.ofNullable(run.incomplete), run.visited.bytes() + run.tree.bytes(),
                run.phaseTimes());
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
        boolean heal = run.healingFailure < 0;
        int[] order = new int[shards + parts]; // the tasks in the order they are taken: shard s as -1 - s, parts as themselves
        for (int k = 0, shard = 0, part = 0; k < order.length; k++) {
            boolean add = shard < shards && (part >= parts || (long) shard * parts <= (long) part * shards);
            order[k] = add ? -1 - shard++ : part++;
        }
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
        });
    }

    /** Runs in a worker: writes only its part, and reads nothing another thread writes meanwhile. */
    private void expandRange(StateSpace.Expander expander, Part part, StateSpace.Level frontier, int frontierFirst,
                             int from, int to, boolean heal, LongPredicate known) {
        Successors out = part.out();
        out.clear();
        part.tally().firstState = from;
        for (int i = from; i < to; i++) {
            expander.expand(frontier, i, known, out);
            boolean healed = heal && (out.open() == 0 || (frontierFirst + i) % healEvery == 0);
            out.endState(healed, healed && expander.healingFailsFromLast());
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
        });
        for (Part p : chunk.parts) {
            Tally tally = p.tally();
            run.transitions += tally.transitions;
            for (int bit = 0; bit < run.witnesses.length; bit++) {
                run.witnesses[bit] += tally.witnesses[bit];
            }
            if (run.healingFailure < 0) {
                run.healingChecks += tally.healingChecks;
                run.healingFailure = tally.healingFailure;
            }
            run.brokenStates |= tally.brokenState ? 1 : 0;
            if (tally.stoppedAtBound) {
                run.incomplete = boundReached(bound);
            } else if (tally.violationAt >= 0) {
                run.found = counterexample(model, run.tree, tally.violationAt, tally.violationChoice, false);
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
        if (successors.firstBreak() >= 0 || tally.firstId + successors.freshCount() > bound) {
            numberUntilStop(successors, tally, tree, bound, frontierFirst, next, nextFirst);
            return;
        }
        // the search goes on past this part: its counts are the expansion's, and only new successors need a visit
        tally.transitions = successors.size();
        for (int bit = 0; bit < tally.witnesses.length; bit++) {
            tally.witnesses[bit] = successors.witnessCount(bit);
        }
        tally.healingChecks = successors.healedThroughFailure();
        if (successors.firstHealingFailure() >= 0) {
            tally.healingFailure = frontierFirst + tally.firstState + successors.firstHealingFailure();
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
     * {@link #number} for a part the search stops in, at its first violation or at the bound: visits every
     * successor in order, counting only up to the one it stops at.
     */
    private static void numberUntilStop(Successors successors, Tally tally, StateTree tree, int bound, int frontierFirst,
                                        StateSpace.Level next, int nextFirst) {
        int fresh = successors.nextFresh();
        int f = tally.firstState;
        for (int k = 0; k < successors.states(); k++, f++) {
            int id = frontierFirst + f;
            if (successors.healed(k) && tally.healingFailure < 0) {
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
                    tally.brokenState = true;
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
                if (breaks != Successors.NONE) {
                    tally.violationAt = id;
                    tally.violationChoice = j - first;
                    return;
                }
            }
        }
    }

    /** Rebuilds the path to state {@code id} from the stored choices, then takes step {@code lastChoice} (-1: none). */
    private static Counterexample counterexample(RelayModel model, StateTree tree, int id, int lastChoice,
                                                 boolean liveness) {
        List<Integer> choices = new ArrayList<>();
        for (int at = id; at > 0; at = tree.parent(at)) {
            choices.add(tree.choice(at));
        }
        Collections.reverse(choices);
        if (lastChoice >= 0) {
            choices.add(lastChoice);
        }
        List<Step> path = new ArrayList<>();
        RelayState s = model.initial();
        for (int choice : choices) {
            Step step = model.enabled(s).get(choice);
            path.add(step);
            s = model.applyEnabled(s, step).state();
        }
        Judge.Judgement j = Judge.judge(model, path, liveness);
        Violation v = j.violation().orElseThrow(() -> new IllegalStateException(
                "internal error: the rebuilt path does not reproduce the violation (non-deterministic logic?)"));
        return new Counterexample(model.logic(), model.scenario(), v, path, j.trace(), OptionalLong.empty(), "bfs");
    }
}
