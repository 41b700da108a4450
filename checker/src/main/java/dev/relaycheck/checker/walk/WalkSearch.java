package dev.relaycheck.checker.walk;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.replay.Shrinker;
import dev.relaycheck.checker.search.PhaseTimes;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.space.StateSpace;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.Judge;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;
import dev.relaycheck.model.shard.Shard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * Seeded walks for scenarios too big to exhaust, on several threads. Walk {@code i} uses seed
 * {@code SplitMix64.derive(seed, i)}, so each walk is fixed by its number. A walk ends at its first violating step;
 * the search goes on through every walk and reports, for each invariant broken, the lowest-numbered walk that broke
 * it, shrunk (in walk order), so the same seed gives the same report whatever the threads' timing (with a time
 * budget, how many walks run varies). {@link #firstViolationOnly()} ends the search at its lowest-numbered failing
 * walk instead: threads stop taking numbers above it. A walk in which the logic under test broke its contract (it
 * threw, or answered one question two ways) ends the search either way, as a {@link LogicFault}, not shrunk.
 *
 * <p>EVENTUAL_DELIVERY is checked along each walk, not only at its end: the healing phase runs from the state
 * after every {@code healEvery}-th step and from the last, and the first that fails ends the walk, reported
 * with the steps up to it. A walk may leave a state that cannot heal and still end in one that can (a poller
 * that happened to ack first), so healing only from the last state would miss it.
 */
public final class WalkSearch {
    /** Steps between two healing runs along a walk, unless the caller picks another stride. */
    public static final int DEFAULT_HEAL_EVERY = 8;

    private final Scheduler.Factory strategy;
    private final int maxDepth;
    private final int healEvery;
    private final int threads;
    private final boolean shrink;
    private final Progress progress;
    private boolean firstOnly;

    public WalkSearch(Scheduler.Factory strategy, int maxDepth, int threads, boolean shrink, Progress progress) {
        this(strategy, maxDepth, DEFAULT_HEAL_EVERY, threads, shrink, progress);
    }

    /** {@code healEvery}: heal from the state after every such step of a walk, besides its last state. */
    public WalkSearch(Scheduler.Factory strategy, int maxDepth, int healEvery, int threads, boolean shrink,
                      Progress progress) {
        if (maxDepth < 1 || threads < 1 || healEvery < 1) {
            throw new IllegalArgumentException("max depth, heal-every and threads must be at least 1");
        }
        this.strategy = strategy;
        this.maxDepth = maxDepth;
        this.healEvery = healEvery;
        this.threads = threads;
        this.shrink = shrink;
        this.progress = progress;
    }

    /** The same search, ending at its lowest-numbered failing walk (one counterexample, the fast path). */
    public WalkSearch firstViolationOnly() {
        WalkSearch w = new WalkSearch(strategy, maxDepth, healEvery, threads, shrink, progress);
        w.firstOnly = true;
        return w;
    }

    /**
     * The outcome of one walk; {@code violations}: every invariant its last step (or its healing run) broke, the first
     * the one it is shrunk for; {@code heals}: healing runs it made.
     */
    private record Walk(int index, long seed, List<Step> path, List<Violation> violations, Map<Witness, Long> witnesses,
                        int steps, int heals, Optional<StateSpace.Failed> failed) {
        Walk(int index, long seed, List<Step> path, List<Violation> violations, Map<Witness, Long> witnesses, int steps,
             int heals) {
            this(index, seed, path, violations, witnesses, steps, heals, Optional.empty());
        }

        boolean failing() {
            return !violations.isEmpty() || failed.isPresent();
        }
    }

    /**
     * What one walk did, as much as a merged count needs: its number, its steps, its healing runs, the invariants it
     * broke, whether the logic broke its contract in it, and how often it saw each witness.
     */
    public record Tally(long index, int steps, int heals, List<Invariant> broke, boolean fault, Map<Witness, Long> witnesses) {
        public Tally {
            broke = List.copyOf(broke);
            witnesses = witnesses.isEmpty() ? Map.of() : new EnumMap<>(witnesses);
        }

        public boolean failing() {
            return fault || !broke.isEmpty();
        }
    }

    /** A search's result and the walks behind it, each once, in walk order (up to its failure, if it found one). */
    public record Walks(SearchResult result, List<Tally> tallies) {
    }

    /** Runs walks 0..runs-1 (or until {@code deadlineNanos}, if positive). */
    public SearchResult search(RelayLogic logic, Scenario scenario, long seed, int runs, long deadlineNanos) {
        return search(logic, scenario, seed, runs, deadlineNanos, Shard.WHOLE).result();
    }

    /**
     * Runs the walks of {@code shard} among 0..runs-1 (or until {@code deadlineNanos}, if positive): its result is that
     * of those walks alone, and its tallies what {@link #merge} needs to give the result of all of them.
     */
    public Walks search(RelayLogic logic, Scenario scenario, long seed, int runs, long deadlineNanos, Shard shard) {
        long start = System.nanoTime();
        RelayModel model = new RelayModel(CheckedLogic.of(logic), scenario);
        AtomicLong next = new AtomicLong();
        AtomicLong stop = new AtomicLong(Long.MAX_VALUE); // the lowest walk that ends the search
        AtomicLong done = new AtomicLong();
        Map<Long, Walk> failures = new java.util.HashMap<>(); // the walks result() asks for, looked up by number
        Map<Invariant, Long> lowest = new EnumMap<>(Invariant.class);
        List<List<Tally>> perThread = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            List<Tally> mine = new ArrayList<>();
            perThread.add(mine);
            Thread worker = new Thread(() -> {
                while (true) {
                    long i = shard.nth(next.getAndIncrement());
                    if (i >= runs || i > stop.get() || (deadlineNanos > 0 && System.nanoTime() > deadlineNanos)) {
                        return;
                    }
                    Walk w = walk(model, (int) i, SplitMix64.derive(seed, i));
                    mine.add(tally(w));
                    long d = done.incrementAndGet();
                    if (w.failing()) {
                        synchronized (failures) {
                            boolean kept = false;
                            for (Violation v : w.violations()) {
                                if (i < lowest.getOrDefault(v.invariant(), Long.MAX_VALUE)) {
                                    lowest.put(v.invariant(), i);
                                    kept = true;
                                }
                            }
                            if ((w.failed().isPresent() || firstOnly) && i < stop.get()) {
                                stop.set(i);
                                kept = true;
                            }
                            if (kept) {
                                failures.put(i, w);
                            }
                        }
                    }
                    if (me == 0 && (d & 0x3FF) == 0) {
                        progress.update(strategy.name() + " " + logic.id() + "/" + scenario.name(), d, 0, 0);
                    }
                }
            }, "relaycheck-walk-" + t);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        // only walks up to the one that ended the search: which later walks a thread had begun is timing
        long last = stop.get();
        List<Tally> tallies = perThread.stream().flatMap(List::stream).filter(w -> w.index() <= last)
                .sorted(Comparator.comparingLong(Tally::index)).toList();
        return new Walks(result(model, tallies, failures::get, System.nanoTime() - start), tallies);
    }

    /**
     * The result of one search over the walks several shards ran ({@code tallies}, each walk once): the counts of the
     * walks, and the failures one search would report, walked and shrunk again here (a walk is fixed by its number).
     * The same result as one search over all those walks; {@code nanos}: the shards' time.
     */
    public SearchResult merge(RelayLogic logic, Scenario scenario, long seed, List<Tally> tallies, long nanos) {
        RelayModel model = new RelayModel(CheckedLogic.of(logic), scenario);
        return result(model, tallies.stream().sorted(Comparator.comparingLong(Tally::index)).toList(),
                i -> walk(model, (int) i, SplitMix64.derive(seed, i)), nanos);
    }

    /**
     * The result of {@code tallies} (in walk order): counts up to the walk that ends the search (a logic fault, or
     * with {@link #firstViolationOnly()} the first failing walk), and for each invariant the first walk that broke it,
     * shrunk, in walk order; {@code walked} gives a walk by its number.
     */
    private SearchResult result(RelayModel model, List<Tally> tallies, LongFunction<Walk> walked, long nanos) {
        Map<Witness, Long> witnesses = new EnumMap<>(Witness.class);
        long totalSteps = 0;
        long heals = 0;
        int depth = 0;
        long walks = 0;
        Set<Invariant> seen = EnumSet.noneOf(Invariant.class);
        List<Counterexample> cxs = new ArrayList<>();
        Optional<LogicFault> fault = Optional.empty();
        for (Tally w : tallies) {
            walks++;
            totalSteps += w.steps();
            heals += w.heals();
            depth = Math.max(depth, w.steps());
            w.witnesses().forEach((x, n) -> witnesses.merge(x, n, Long::sum));
            if (!w.fault() && seen.containsAll(w.broke())) {
                continue; // no failure, or only invariants an earlier walk broke
            }
            Walk failing = walked.apply(w.index());
            if (w.fault()) {
                fault = Optional.of(fault(model, failing));
                break;
            }
            try {
                for (Violation v : failing.violations()) {
                    if (seen.add(v.invariant())) {
                        cxs.add(report(model, failing, v.invariant()));
                    }
                }
            } catch (Shrinker.LogicFailed f) { // the logic failed on a schedule the shrinker tried
                fault = Optional.of(f.fault().foundBy(strategy.name() + " walk #" + failing.index() + ", shrinking"));
                break;
            }
            if (firstOnly) {
                break;
            }
        }
        // a user's logic is re-asked every question the walks asked: one changed since may not have come again
        return new SearchResult(strategy.name(), "readable", model.logic(), model.scenario(), totalSteps,
                totalSteps, depth, walks, heals, nanos, witnesses, cxs, Optional.empty(), 0, PhaseTimes.NONE, fault,
                EnumSet.allOf(Invariant.class)).rechecked();
    }

    private static Tally tally(Walk w) {
        return new Tally(w.index(), w.steps(), w.heals(), w.violations().stream().map(Violation::invariant).toList(),
                w.failed().isPresent(), w.witnesses());
    }

    /**
     * One walk: choose until nothing is enabled or the depth bound, judging every step, healing from the state
     * after every {@code healEvery}-th step, then from the last state. A logic failure ends it, with what the
     * walk was doing then.
     */
    private Walk walk(RelayModel model, int index, long seed) {
        Scheduler scheduler = strategy.forWalk(seed);
        List<Step> path = new ArrayList<>();
        Map<Witness, Long> witnesses = new EnumMap<>(Witness.class);
        int[] heals = {0};
        try {
            return walk(model, index, seed, scheduler, path, witnesses, heals);
        } catch (StepFailed f) {
            return new Walk(index, seed, path, List.of(), witnesses, path.size(), heals[0], Optional.of(f.failed));
        }
    }

    /** A logic failure in a walk, with what the walk was doing. */
    private static final class StepFailed extends RuntimeException {
        final transient StateSpace.Failed failed;

        StepFailed(StateSpace.Failed failed) {
            super(failed.failure().line(), null, false, false);
            this.failed = failed;
        }
    }

    private static <T> T asking(java.util.function.Supplier<T> call, LogicFault.Doing doing, Step step) {
        try {
            return call.get();
        } catch (LogicFailure f) {
            throw new StepFailed(new StateSpace.Failed(f, doing, Optional.ofNullable(step)));
        }
    }

    /** {@code heals[0]} counts the healing runs made, also when a logic failure ends the walk. */
    private Walk walk(RelayModel model, int index, long seed, Scheduler scheduler, List<Step> path,
                      Map<Witness, Long> witnesses, int[] heals) {
        RelayState s = model.initial();
        for (int i = 0; i < maxDepth; i++) {
            RelayState at = s;
            List<Step> enabled = asking(() -> model.enabled(at), LogicFault.Doing.LISTING_STEPS, null);
            if (enabled.isEmpty()) {
                break;
            }
            Step step = scheduler.choose(s, enabled, i);
            StepResult r = asking(() -> model.applyEnabled(at, step), LogicFault.Doing.TAKING_STEP, step);
            path.add(step);
            Witness.seenIn(r.outcome()).forEach(w -> witnesses.merge(w, 1L, Long::sum));
            List<Violation> v = Invariants.check(model.scenario(), model.logic().tokenPolicy(), s, step, r);
            s = r.state();
            if (!v.isEmpty()) {
                return new Walk(index, seed, path, v, witnesses, path.size(), heals[0]);
            }
            if (path.size() % healEvery == 0) {
                heals[0]++;
                RelayState here = s;
                Optional<Violation> stuck = asking(() -> Healing.check(model, here), LogicFault.Doing.HEALING, null);
                if (stuck.isPresent() || i + 1 == maxDepth) {
                    return new Walk(index, seed, path, stuck.stream().toList(), witnesses, path.size(), heals[0]);
                }
            }
        }
        if (!path.isEmpty() && path.size() % healEvery == 0) { // healed here already, and it healed: the walk went on
            return new Walk(index, seed, path, List.of(), witnesses, path.size(), heals[0]);
        }
        heals[0]++;
        RelayState end = s;
        return new Walk(index, seed, path, asking(() -> Healing.check(model, end), LogicFault.Doing.HEALING, null).stream().toList(),
                witnesses, path.size(), heals[0]);
    }

    /** Judges the shrunk schedule; the logic failing on it is reported as it would be while shrinking. */
    private static Judge.Judgement judge(RelayModel model, List<Step> path) {
        try {
            return Judge.judge(model, path, true);
        } catch (LogicFailure f) {
            throw new Shrinker.LogicFailed(LogicFault.of(model, path, LogicFault.Doing.HEALING, Optional.empty(), f,
                    OptionalLong.empty(), "shrinking"));
        }
    }

    private LogicFault fault(RelayModel model, Walk w) {
        StateSpace.Failed f = w.failed().orElseThrow();
        return LogicFault.of(model, w.path(), f.doing(), f.step(), f.failure(), OptionalLong.of(w.seed()),
                strategy.name() + " walk #" + w.index());
    }

    /** Walk {@code w}'s violation of {@code invariant}, shrunk for it (the shrinker keeps a schedule that breaks it first). */
    private Counterexample report(RelayModel model, Walk w, Invariant invariant) {
        Shrinker.Shrunk shrunk = shrink
                ? Shrinker.shrink(model.logic(), model.scenario(), w.path(), invariant)
                : new Shrinker.Shrunk(model.scenario(), w.path());
        RelayModel small = new RelayModel(model.logic(), shrunk.scenario());
        Judge.Judgement j = judge(small, shrunk.path());
        Violation found = j.of(invariant).orElseThrow(() -> new IllegalStateException("shrunk schedule lost its violation of " + invariant));
        return new Counterexample(model.logic(), shrunk.scenario(), found, shrunk.path(), j.trace(), OptionalLong.of(w.seed()),
                strategy.name() + " walk #" + w.index());
    }
}
