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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Exhaustive breadth-first search with fingerprint-based duplicate detection. Transition invariants are
 * checked on every transition, state invariants on every new state, so the first violation found is at the
 * smallest depth: a shortest counterexample. EVENTUAL_DELIVERY is checked by a healing run from every
 * state without successors and from every {@code healEvery}-th new state; what healing finds is reported
 * only if the whole space holds no safety violation, so a safety counterexample is always a shortest one.
 *
 * <p>Each level is processed in chunks: worker threads expand a chunk's states (successors, invariant
 * checks, fingerprints, healing) in parallel, while one thread merges the previous chunk's results in
 * frontier order. The merge order alone decides ids, counts and which counterexample is reported, so any
 * number of threads gives the same result.
 */
public final class BreadthFirstSearch {
    private static final int CHUNK = 4096;
    private static final int TOUCH_AHEAD = 16;

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
        long perState = space instanceof PackedSpace ? 150 : 600; // with margin for the frontier's peak
        return (int) Math.min(200_000_000L, Runtime.getRuntime().maxMemory() / perState);
    }

    /** The search's mutable bookkeeping, owned by the merging thread. */
    private static final class Run {
        final FingerprintTable table;
        final long[] witnesses = new long[Witness.values().length];
        long transitions;
        long healingChecks;
        int healingFailure = -1;
        int brokenStates; // a state breaking a state invariant is counted but not stored: the search ends there
        long touched; // keeps the touching loads from being optimised away
        Counterexample found;
        String incomplete;

        Run(int maxStates) {
            table = new FingerprintTable(maxStates);
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
            }
        }
        return search(model, new ReadableSpace(model));
    }

    private SearchResult search(RelayModel model, StateSpace space) {
        long start = System.nanoTime();
        int bound = maxStates > 0 ? maxStates : defaultMaxStates(space);
        Run run = new Run(bound);
        StateSpace.Level frontier = space.initial();
        run.table.addIfAbsent(frontier.fingerprint(0), -1, 0);
        IntList ids = new IntList();
        ids.add(0);
        int depth = 0;
        List<StateSpace.Expander> expanders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            expanders.add(space.expander());
        }
        ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
        String task = "bfs " + model.logic().id() + "/" + model.scenario().name();
        try {
            while (frontier.size() > 0 && run.going()) {
                StateSpace.Level next = space.newLevel();
                IntList nextIds = new IntList();
                int size = frontier.size();
                Supplier<List<Successors>> pending = expand(pool, expanders, run, frontier, ids, 0, Math.min(size, CHUNK), space);
                for (int from = 0; from < size && run.going(); from += CHUNK) {
                    List<Successors> expanded = pending.get();
                    int after = from + CHUNK;
                    // the workers expand the next chunk while this thread merges this one
                    pending = after < size ? expand(pool, expanders, run, frontier, ids, after, Math.min(size, after + CHUNK), space) : null;
                    merge(model, run, bound, expanded, ids, from, next, nextIds);
                    progress.update(task, run.table.size(), run.transitions, depth);
                }
                frontier = next;
                ids = nextIds;
                if (frontier.size() > 0) {
                    depth++;
                }
            }
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        if (run.going() && run.healingFailure >= 0) {
            run.found = counterexample(model, run.table, run.healingFailure, -1, true);
        }
        Map<Witness, Long> witnesses = new EnumMap<>(Witness.class);
        for (Witness w : Witness.values()) {
            if (run.witnesses[w.ordinal()] > 0) {
                witnesses.put(w, run.witnesses[w.ordinal()]);
            }
        }
        return new SearchResult("bfs", space.engine(), model.logic(), model.scenario(), run.table.size() + run.brokenStates,
                run.transitions, depth, 0, run.healingChecks, System.nanoTime() - start, witnesses,
                Optional.ofNullable(run.found), Optional.ofNullable(run.incomplete), run.table.bytes());
    }

    /**
     * Starts expanding states [from, to) of the frontier, split between the workers; the result has one
     * {@link Successors} per worker, in order. With one thread the work is done when the result is asked
     * for, so one thread means one core.
     */
    private Supplier<List<Successors>> expand(ExecutorService pool, List<StateSpace.Expander> expanders, Run run,
                                              StateSpace.Level frontier, IntList ids, int from, int to, StateSpace space) {
        boolean heal = run.healingFailure < 0;
        int stride = space instanceof PackedSpace p ? p.words() : 0;
        if (pool == null) {
            return () -> List.of(expandRange(expanders.get(0), run.table, frontier, ids, from, to, heal, stride));
        }
        int per = (to - from + threads - 1) / threads;
        List<Future<Successors>> jobs = new ArrayList<>();
        for (int t = 0, a = from; a < to; t++, a += per) {
            StateSpace.Expander expander = expanders.get(t);
            int lo = a;
            int hi = Math.min(to, a + per);
            jobs.add(pool.submit(() -> expandRange(expander, run.table, frontier, ids, lo, hi, heal, stride)));
        }
        return () -> {
            List<Successors> out = new ArrayList<>(jobs.size());
            try {
                for (Future<Successors> f : jobs) {
                    out.add(f.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
            }
            return out;
        };
    }

    /**
     * Runs in a worker: writes nothing shared, and reads the visited set while the merge of the previous chunk
     * may be adding to it. That is safe: a fingerprint read there was stored, and a state it misses is looked
     * up again by the merge, so what it sees decides only how much work the merge does, never a result.
     * (64-bit HotSpot never tears a long; grow() leaves the old array intact.)
     */
    private Successors expandRange(StateSpace.Expander expander, FingerprintTable table, StateSpace.Level frontier,
                                   IntList ids, int from, int to, boolean heal, int stride) {
        Successors out = new Successors(stride);
        for (int i = from; i < to; i++) {
            expander.expand(frontier, i, table::contains, out);
            boolean healed = heal && (out.open() == 0 || ids.get(i) % healEvery == 0);
            out.endState(healed, healed && expander.healingFails(frontier, i));
        }
        out.markKnown(table);
        return out;
    }

    private void merge(RelayModel model, Run run, int bound, List<Successors> expanded, IntList ids, int from,
                       StateSpace.Level next, IntList nextIds) {
        int f = from;
        for (Successors successors : expanded) {
            for (int j = 0; j < TOUCH_AHEAD; j++) {
                touchAhead(run, successors, j);
            }
            for (int k = 0; k < successors.states(); k++, f++) {
                int id = ids.get(f);
                if (successors.healed(k) && run.healingFailure < 0) {
                    run.healingChecks++;
                    if (successors.healingFailed(k)) {
                        run.healingFailure = id;
                    }
                }
                int first = successors.from(k);
                for (int j = first; j < successors.to(k); j++) {
                    touchAhead(run, successors, j + TOUCH_AHEAD);
                    run.transitions++;
                    for (int w = successors.witnesses(j), bit = 0; w != 0; w >>>= 1, bit++) {
                        run.witnesses[bit] += w & 1;
                    }
                    byte breaks = successors.breaks(j);
                    if (breaks == Successors.BREAKS_STATE) {
                        run.brokenStates = 1;
                    } else if (successors.known(j)) {
                        // stored before this chunk was expanded: nothing to add
                    } else if (run.table.full()) {
                        if (!run.table.contains(successors.fingerprint(j))) {
                            run.incomplete = "stopped at the --max-states bound of " + bound
                                    + " distinct states; raise it (and -Xmx) or use random/pct search";
                            return;
                        }
                    } else {
                        int newId = run.table.addIfAbsent(successors.fingerprint(j), id, j - first);
                        if (newId >= 0) {
                            next.add(successors, j);
                            nextIds.add(newId);
                        }
                    }
                    if (breaks != Successors.NONE) {
                        run.found = counterexample(model, run.table, id, j - first, false);
                        return;
                    }
                }
            }
        }
    }

    /**
     * Loads the table slot of a successor the merge will probe a few successors from now, so its cache miss
     * is under way by then (see {@link FingerprintTable#touch}).
     */
    private static void touchAhead(Run run, Successors successors, int j) {
        if (j < successors.size() && !successors.known(j)) {
            run.touched += run.table.touch(successors.fingerprint(j));
        }
    }

    /** Rebuilds the path to state {@code id} from the stored choices, then takes step {@code lastChoice} (-1: none). */
    private static Counterexample counterexample(RelayModel model, FingerprintTable table, int id, int lastChoice,
                                                 boolean liveness) {
        List<Integer> choices = new ArrayList<>();
        for (int at = id; at > 0; at = table.parent(at)) {
            choices.add(table.choice(at));
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

    /** A growable list of ints: frontier ids without boxing. */
    private static final class IntList {
        private int[] values = new int[16];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int get(int i) {
            return values[i];
        }
    }
}
