package dev.relaycheck.checker;

import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
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
    private final int maxStates;
    private final int healEvery;
    private final int threads;
    private final Progress progress;

    public BreadthFirstSearch(int maxStates, int healEvery, Progress progress) {
        this(maxStates, healEvery, 1, progress);
    }

    public BreadthFirstSearch(int maxStates, int healEvery, int threads, Progress progress) {
        if (maxStates < 1 || healEvery < 1 || threads < 1) {
            throw new IllegalArgumentException("max states, heal-every and threads must be >= 1");
        }
        this.maxStates = maxStates;
        this.healEvery = healEvery;
        this.threads = threads;
        this.progress = progress;
    }

    /** A default bound on distinct states that fits the heap: the frontier holds whole states. */
    public static int defaultMaxStates() {
        long perState = 600; // order of a state in the frontier plus its table entry, with margin
        return (int) Math.min(50_000_000L, Runtime.getRuntime().maxMemory() / perState);
    }

    /** One frontier state, expanded by a worker. */
    private record Expansion(List<Step> enabled, List<StepResult> results, long[] fingerprints,
                             List<List<Violation>> violations, boolean healed, boolean healingFailed) {
    }

    /** The search's mutable bookkeeping, owned by the merging thread. */
    private static final class Run {
        final FingerprintTable table;
        final Map<Witness, Long> witnesses = new EnumMap<>(Witness.class);
        long transitions;
        long healingChecks;
        int healingFailure = -1;
        Counterexample found;
        String incomplete;

        Run(int maxStates) {
            table = new FingerprintTable(maxStates);
        }
    }

    public SearchResult search(RelayLogic logic, Scenario scenario) {
        long start = System.nanoTime();
        RelayModel model = new RelayModel(logic, scenario);
        Run run = new Run(maxStates);
        RelayState initial = model.initial();
        run.table.addIfAbsent(Fingerprint.of(initial), -1, 0);
        List<RelayState> frontier = new ArrayList<>(List.of(initial));
        List<Integer> ids = new ArrayList<>(List.of(0));
        int depth = 0;
        ExecutorService pool = threads > 1 ? Executors.newFixedThreadPool(threads) : null;
        try {
            while (!frontier.isEmpty() && run.found == null && run.incomplete == null) {
                List<RelayState> next = new ArrayList<>();
                List<Integer> nextIds = new ArrayList<>();
                for (int from = 0; from < frontier.size() && run.found == null && run.incomplete == null; from += CHUNK) {
                    int to = Math.min(frontier.size(), from + CHUNK);
                    List<Expansion> expanded = expand(pool, model, run, frontier.subList(from, to), ids.subList(from, to));
                    merge(model, run, frontier.subList(from, to), ids.subList(from, to), expanded, next, nextIds);
                    progress.update("bfs " + logic.id() + "/" + scenario.name(), run.table.size(), run.transitions, depth);
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
        if (run.found == null && run.incomplete == null && run.healingFailure >= 0) {
            run.found = counterexample(model, run.table, run.healingFailure, null, true);
        }
        return new SearchResult("bfs", logic, scenario, run.table.size(), run.transitions, depth, 0, run.healingChecks,
                System.nanoTime() - start, run.witnesses, Optional.ofNullable(run.found),
                Optional.ofNullable(run.incomplete), run.table.bytes());
    }

    private List<Expansion> expand(ExecutorService pool, RelayModel model, Run run, List<RelayState> states,
                                   List<Integer> ids) {
        boolean heal = run.healingFailure < 0;
        if (pool == null) {
            List<Expansion> out = new ArrayList<>(states.size());
            for (int i = 0; i < states.size(); i++) {
                out.add(expandOne(model, run.table, states.get(i), ids.get(i), heal));
            }
            return out;
        }
        int per = (states.size() + threads - 1) / threads;
        List<Callable<List<Expansion>>> jobs = new ArrayList<>();
        for (int from = 0; from < states.size(); from += per) {
            int a = from;
            int b = Math.min(states.size(), from + per);
            jobs.add(() -> {
                List<Expansion> part = new ArrayList<>(b - a);
                for (int i = a; i < b; i++) {
                    part.add(expandOne(model, run.table, states.get(i), ids.get(i), heal));
                }
                return part;
            });
        }
        List<Expansion> out = new ArrayList<>(states.size());
        try {
            for (Future<List<Expansion>> f : pool.invokeAll(jobs)) {
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
    private Expansion expandOne(RelayModel model, FingerprintTable table, RelayState s, int id, boolean heal) {
        List<Step> enabled = model.enabled(s);
        boolean healed = heal && (enabled.isEmpty() || id % healEvery == 0);
        boolean healingFailed = healed && Healing.check(model, s).isPresent();
        List<StepResult> results = new ArrayList<>(enabled.size());
        long[] fps = new long[enabled.size()];
        List<List<Violation>> violations = new ArrayList<>(enabled.size());
        for (int i = 0; i < enabled.size(); i++) {
            Step step = enabled.get(i);
            StepResult r = model.applyEnabled(s, step);
            results.add(r);
            fps[i] = Fingerprint.of(r.state());
            List<Violation> v = Invariants.checkTransition(s, step, r);
            if (!table.contains(fps[i])) {
                List<Violation> all = new ArrayList<>(v);
                all.addAll(Invariants.checkState(model.scenario(), r.state()));
                v = all;
            }
            violations.add(v);
        }
        return new Expansion(enabled, results, fps, violations, healed, healingFailed);
    }

    private void merge(RelayModel model, Run run, List<RelayState> states, List<Integer> ids, List<Expansion> expanded,
                       List<RelayState> next, List<Integer> nextIds) {
        for (int f = 0; f < states.size(); f++) {
            Expansion e = expanded.get(f);
            int id = ids.get(f);
            if (e.healed() && run.healingFailure < 0) {
                run.healingChecks++;
                if (e.healingFailed()) {
                    run.healingFailure = id;
                }
            }
            for (int i = 0; i < e.enabled().size(); i++) {
                StepResult r = e.results().get(i);
                run.transitions++;
                countWitnesses(r.outcome(), run.witnesses);
                if (run.table.full()) {
                    if (!run.table.contains(e.fingerprints()[i])) {
                        run.incomplete = "stopped at the --max-states bound of " + maxStates
                                + " distinct states; raise it (and -Xmx) or use random/pct search";
                        return;
                    }
                    continue;
                }
                int newId = run.table.addIfAbsent(e.fingerprints()[i], id, i);
                if (newId >= 0) {
                    next.add(r.state());
                    nextIds.add(newId);
                }
                if (!e.violations().get(i).isEmpty()) {
                    run.found = counterexample(model, run.table, id, e.enabled().get(i), false);
                    return;
                }
            }
        }
    }

    static void countWitnesses(Outcome outcome, Map<Witness, Long> witnesses) {
        for (Witness w : Witness.seenIn(outcome)) {
            witnesses.merge(w, 1L, Long::sum);
        }
    }

    /** Rebuilds the path to state {@code id} from the stored choices, then appends {@code last}. */
    private static Counterexample counterexample(RelayModel model, FingerprintTable table, int id, Step last,
                                                 boolean liveness) {
        List<Integer> choices = new ArrayList<>();
        for (int at = id; at > 0; at = table.parent(at)) {
            choices.add(table.choice(at));
        }
        Collections.reverse(choices);
        List<Step> path = new ArrayList<>();
        RelayState s = model.initial();
        for (int choice : choices) {
            Step step = model.enabled(s).get(choice);
            path.add(step);
            s = model.applyEnabled(s, step).state();
        }
        if (last != null) {
            path.add(last);
        }
        Judge.Judgement j = Judge.judge(model, path, liveness);
        Violation v = j.violation().orElseThrow(() -> new IllegalStateException(
                "internal error: the rebuilt path does not reproduce the violation (non-deterministic logic?)"));
        return new Counterexample(model.logic(), model.scenario(), v, path, j.trace(), OptionalLong.empty(), "bfs");
    }
}
