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
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Exhaustive breadth-first search with fingerprint-based duplicate detection. Transition invariants are
 * checked on every transition, state invariants on every new state, so the first violation found is at the
 * smallest depth: a shortest counterexample. EVENTUAL_DELIVERY is checked by a healing run from every
 * state without successors and from every {@code healEvery}-th new state; what healing finds is reported
 * only if the whole space holds no safety violation, so a safety counterexample is always a shortest one.
 *
 * <p>Each level is processed in chunks: worker threads expand the chunk's states (successors, invariant
 * checks, fingerprints, healing) in parallel against the visited set as it stood, then one thread merges
 * the results in frontier order. The merge order alone decides ids, counts and which counterexample is
 * reported, so any number of threads gives the same result.
 */
public final class BreadthFirstSearch {
    private static final int CHUNK = 4096;

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
    static int defaultMaxStates(StateSpace<?> space) {
        long perState = space instanceof PackedSpace ? 150 : 600; // with margin for the frontier's peak
        return (int) Math.min(200_000_000L, Runtime.getRuntime().maxMemory() / perState);
    }

    /** One frontier state, expanded by a worker. */
    private record Expansion<S>(Successors<S> successors, boolean healed, boolean healingFailed) {
    }

    /** The search's mutable bookkeeping, owned by the merging thread. */
    private static final class Run {
        final FingerprintTable table;
        final long[] witnesses = new long[Witness.values().length];
        long transitions;
        long healingChecks;
        int healingFailure = -1;
        int brokenStates; // a state breaking a state invariant is counted but not stored: the search ends there
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

    private <S> SearchResult search(RelayModel model, StateSpace<S> space) {
        long start = System.nanoTime();
        int bound = maxStates > 0 ? maxStates : defaultMaxStates(space);
        Run run = new Run(bound);
        S initial = space.initial();
        run.table.addIfAbsent(space.fingerprint(initial), -1, 0);
        List<S> frontier = new ArrayList<>(List.of(initial));
        IntList ids = new IntList();
        ids.add(0);
        int depth = 0;
        List<StateSpace.Expander<S>> expanders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            expanders.add(space.expander());
        }
        ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
        String task = "bfs " + model.logic().id() + "/" + model.scenario().name();
        try {
            while (!frontier.isEmpty() && run.going()) {
                List<S> next = new ArrayList<>();
                IntList nextIds = new IntList();
                for (int from = 0; from < frontier.size() && run.going(); from += CHUNK) {
                    int to = Math.min(frontier.size(), from + CHUNK);
                    List<Expansion<S>> expanded = expand(pool, expanders, run, frontier.subList(from, to), ids, from);
                    merge(model, run, bound, expanded, ids, from, next, nextIds);
                    progress.update(task, run.table.size(), run.transitions, depth);
                }
                frontier = next;
                ids = nextIds;
                if (!frontier.isEmpty()) {
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

    private <S> List<Expansion<S>> expand(ExecutorService pool, List<StateSpace.Expander<S>> expanders, Run run,
                                          List<S> states, IntList ids, int offset) {
        boolean heal = run.healingFailure < 0;
        if (pool == null) {
            return expandRange(expanders.get(0), run.table, states, ids, offset, 0, states.size(), heal);
        }
        int per = (states.size() + threads - 1) / threads;
        List<Callable<List<Expansion<S>>>> jobs = new ArrayList<>();
        for (int t = 0, from = 0; from < states.size(); t++, from += per) {
            StateSpace.Expander<S> expander = expanders.get(t);
            int a = from;
            int b = Math.min(states.size(), from + per);
            jobs.add(() -> expandRange(expander, run.table, states, ids, offset, a, b, heal));
        }
        List<Expansion<S>> out = new ArrayList<>(states.size());
        try {
            for (Future<List<Expansion<S>>> f : pool.invokeAll(jobs)) {
                out.addAll(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        }
        return out;
    }

    /** Runs in a worker: reads the visited set (not written during this phase), writes nothing shared. */
    private <S> List<Expansion<S>> expandRange(StateSpace.Expander<S> expander, FingerprintTable table, List<S> states,
                                               IntList ids, int offset, int from, int to, boolean heal) {
        List<Expansion<S>> part = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            S s = states.get(i);
            Successors<S> successors = new Successors<>();
            expander.expand(s, table::contains, successors);
            boolean healed = heal && (successors.size() == 0 || ids.get(offset + i) % healEvery == 0);
            part.add(new Expansion<>(successors, healed, healed && expander.healingFails(s)));
        }
        return part;
    }

    private <S> void merge(RelayModel model, Run run, int bound, List<Expansion<S>> expanded, IntList ids, int offset,
                           List<S> next, IntList nextIds) {
        for (int f = 0; f < expanded.size(); f++) {
            Expansion<S> e = expanded.get(f);
            int id = ids.get(offset + f);
            if (e.healed() && run.healingFailure < 0) {
                run.healingChecks++;
                if (e.healingFailed()) {
                    run.healingFailure = id;
                }
            }
            Successors<S> successors = e.successors();
            for (int i = 0; i < successors.size(); i++) {
                run.transitions++;
                for (int w = successors.witnesses(i), bit = 0; w != 0; w >>>= 1, bit++) {
                    run.witnesses[bit] += w & 1;
                }
                byte breaks = successors.breaks(i);
                if (breaks == Successors.BREAKS_STATE) {
                    run.brokenStates = 1;
                } else if (run.table.full()) {
                    if (!run.table.contains(successors.fingerprint(i))) {
                        run.incomplete = "stopped at the --max-states bound of " + bound
                                + " distinct states; raise it (and -Xmx) or use random/pct search";
                        return;
                    }
                } else {
                    int newId = run.table.addIfAbsent(successors.fingerprint(i), id, i);
                    if (newId >= 0) {
                        next.add(successors.state(i));
                        nextIds.add(newId);
                    }
                }
                if (breaks != Successors.NONE) {
                    run.found = counterexample(model, run.table, id, i, false);
                    return;
                }
            }
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
