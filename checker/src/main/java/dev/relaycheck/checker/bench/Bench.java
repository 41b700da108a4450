package dev.relaycheck.checker.bench;

import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.PhaseTimes;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The figures of results/bench.md: exhaustive search speed on one and two threads, memory per stored
 * state, the readable and packed engines side by side, and the time to the first counterexample of every
 * catalogue variant, each set against the target it is meant to meet.
 */
public final class Bench {
    private static final int HEAL_EVERY = 8; // as check runs it
    private static final int IN_CACHE = 3_000_000;
    /** A shape is within this much of the reference logic's speed and memory per state, or it misses its target. */
    private static final double SHAPE_TARGET = 1.5;
    /** A shape's space this many times the reference's (or a fraction as small) is also measured against one of its size. */
    private static final int SIZE_GAP = 4;
    /** Two threads are to run soak at least this much faster than one, in every round at low load. */
    private static final double TWO_THREAD_TARGET = 1.6;
    /**
     * The CPU other processes take while a round's searches run, a core, below which the round counts as run at low
     * load: measured over the runs, not a load average before them, which counts the bench's own searches just run.
     */
    private static final double LOW_LOAD_PER_CORE = 0.5;

    private final int soakStates;
    private final int repeats;
    private final Progress progress;
    private final List<RelayLogic> shapes; // users' logics measured beside the shipped correct one
    private final int shapeStates;

    /**
     * {@code soakStates}: a bound on soak's distinct states, or 0 to search all of it; {@code repeats}: rounds of
     * soak on one and two threads, interleaved (the table gives the median run and the range, and each round's
     * pair is reported apart).
     */
    public Bench(int soakStates, int repeats, Progress progress) {
        this(soakStates, repeats, progress, List.of(), 0);
    }

    /**
     * {@code shapes}: users' logics to measure beside the shipped correct one, each against the reference run just
     * before it; {@code shapeStates}: the bound on each of their searches of soak (0: all of it).
     */
    public Bench(int soakStates, int repeats, Progress progress, List<RelayLogic> shapes, int shapeStates) {
        this.soakStates = soakStates;
        this.repeats = repeats;
        this.progress = progress;
        this.shapes = List.copyOf(shapes);
        this.shapeStates = shapeStates;
    }

    /** One measured search, run one or more times: its median run, and every run's time. */
    private record Row(String label, int threads, SearchResult result, List<Double> seconds) {
        double bytesPerState() {
            return (double) result.tableBytes() / result.states();
        }

        String range() {
            return seconds.size() == 1 ? "" : String.format(" (%.2f-%.2f)", seconds.get(0), seconds.get(seconds.size() - 1));
        }
    }

    /**
     * One search as a round measures it: its result, the process's CPU time over it, the load average just before,
     * and the CPU time every other process took from the machine while it ran, a core (-1 where the kernel does not say).
     */
    private record Run(SearchResult result, long cpuNanos, String loadBefore, double othersPerCore) {
        /** The search's own threads' CPU time a state (not the JIT's, the collector's or a probe's after it). */
        double cpuPerState() {
            long search = result.phases().crew().cpuNanos();
            return (double) (search > 0 ? search : cpuNanos) / result.states();
        }

        double seconds() {
            return result.nanos() / 1e9;
        }

        double bytesPerState() {
            return (double) result.tableBytes() / result.states();
        }
    }

    public String run() {
        Scenario soak = ReferenceScenarios.soak();
        Scenario mixedBig = ReferenceScenarios.mixedBig();
        warmUp(LogicCatalogue.correct());
        String inCache = " (first " + String.format("%,d", IN_CACHE) + " states)";
        List<Run[]> rounds = new ArrayList<>(); // soak on one thread, then on two, round after round
        for (int r = 0; r < repeats; r++) {
            rounds.add(new Run[] {timed(LogicCatalogue.correct(), soak, soakStates, 1, Engine.PACKED, false),
                    timed(LogicCatalogue.correct(), soak, soakStates, 2, Engine.PACKED, false)});
        }
        Row soak1 = median("", 1, rounds.stream().map(pair -> pair[0]).toList());
        Row soak2 = median("", 2, rounds.stream().map(pair -> pair[1]).toList());
        boolean bigSoak = soakStates == 0 || soakStates > IN_CACHE; // else its first 3 M states are all it searched
        Row cached1 = bigSoak ? measure(inCache, soak, IN_CACHE, 1, Engine.PACKED, repeats) : soak1;
        Row cached2 = bigSoak ? measure(inCache, soak, IN_CACHE, 2, Engine.PACKED, repeats) : soak2;
        Row big1 = measure("", mixedBig, 0, 1, Engine.PACKED, 1);
        Row big2 = measure("", mixedBig, 0, 2, Engine.PACKED, 1);
        Row readable = measure("", mixedBig, 0, 1, Engine.READABLE, 1);
        List<Row> rows = bigSoak ? List.of(soak1, soak2, cached1, cached2, big1, big2, readable)
                : List.of(soak1, soak2, big1, big2, readable);

        StringBuilder b = new StringBuilder("# relaycheck explorer benchmark\n\n");
        b.append(String.format("Run %s; load average %s before it.%n", java.time.Instant.now().truncatedTo(
                java.time.temporal.ChronoUnit.SECONDS), loadAverage()));
        b.append(String.format("JVM %s, %d cores available, max heap %,d MiB; transparent huge pages: system %s, JVM %s.%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, hugePages(),
                ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+UseTransparentHugePages") ? "on" : "off"));
        b.append("Every search is exhaustive breadth-first on the correct logic, with healing (EVENTUAL_DELIVERY) from every ")
                .append(HEAL_EVERY).append("th state and every dead end, as `check` runs it; each follows a warm-up search,\n")
                .append("so JIT compilation is not timed. Measured on a shared machine, where identical runs differ by up to a fifth: soak\n")
                .append("runs ").append(repeats).append(" rounds, one thread then two, and its rows give the median run, with the fastest and slowest times in brackets.\n")
                .append("CPU ns/state is the CPU time of a search's own threads divided by its states: what the machine's load does not stretch.\n\n");
        b.append("## Exhaustive search\n\n| scenario | engine | threads | distinct states | transitions | seconds | states/s | bytes/state | complete |\n");
        b.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            SearchResult s = r.result();
            b.append(String.format("| %s%s | %s | %d | %,d | %,d | %.2f%s | %,.0f | %.1f | %s |%n", s.scenario().name(), r.label(),
                    s.engine(), r.threads(), s.states(), s.transitions(), s.nanos() / 1e9, r.range(), s.statesPerSecond(),
                    r.bytesPerState(), s.incomplete().isEmpty() ? "yes" : "no (bound reached)"));
        }
        b.append("\nbytes/state: the visited set (64-bit fingerprints, open addressing at most 70% full) and the tree of "
                + "parent ids and step choices that rebuilds a counterexample, divided by the states stored.\n");

        b.append(threadRounds(rounds));
        Symmetry symmetry = symmetry(soak, mixedBig, rounds.get(rounds.size() / 2)[1]);
        b.append(symmetry.text());
        List<String[]> shapeTargets = new ArrayList<>();
        if (!shapes.isEmpty()) {
            b.append(shapesSection(soak, mixedBig, shapeTargets));
        }

        List<String[]> catches = new ArrayList<>();
        double slowestCatch = 0;
        for (RelayLogic v : LogicCatalogue.variants()) {
            for (Scenario s : ReferenceScenarios.defaults()) {
                SearchResult r = new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, HEAL_EVERY, 1, Engine.AUTO, progress)
                        .judging(dev.relaycheck.checker.space.Judging.FIRST).search(v, s);
                if (r.violated()) {
                    slowestCatch = Math.max(slowestCatch, r.nanos() / 1e9);
                    catches.add(new String[] {v.id(), s.name(), r.counterexample().get().invariant().name(),
                            Integer.toString(r.counterexample().get().path().size()), String.format("%,d", r.states()),
                            String.format("%.3f", r.nanos() / 1e9)});
                    break;
                }
            }
        }

        b.append("\n## Against the targets\n\n| target | measured | met |\n|---|---|---|\n");
        String soakLabel = soakStates == 0 ? "soak" : "soak's first " + String.format("%,d", soakStates) + " states";
        soakTarget(b, soakLabel + ": at least 1.5 M distinct states/s on one core (median run)", soak1, bigSoak ? cached1 : null, 1.5e6);
        soakTarget(b, soakLabel + ": at least 2.5 M distinct states/s on two cores (median run)", soak2, bigSoak ? cached2 : null, 2.5e6);
        double bytes = Math.max(soak1.bytesPerState(), soak2.bytesPerState());
        target(b, "at most 32 bytes per stored state", String.format("%.1f (soak)", bytes), bytes <= 32);
        double bigSeconds = Math.min(big1.result().nanos(), big2.result().nanos()) / 1e9;
        target(b, "mixed-big verified exhaustively in under a second", String.format("%.2f s", bigSeconds), bigSeconds < 1);
        target(b, "every catalogue variant caught in under a second", String.format("slowest %.3f s", slowestCatch), slowestCatch < 1);
        boolean agree = readable.result().summary().equals(big1.result().summary());
        target(b, "packed and readable engines agree on mixed-big",
                agree ? "same states, transitions, depth, witnesses" : "DIFFERENT counts", agree);
        twoThreadTargets(b, rounds);
        target(b, soakLabel + " verified (safety and liveness) over poller symmetry in under 4 s on two threads",
                String.format("%.2f s (%s)", symmetry.soak2().seconds(), symmetry.soak2().result().verdictLine()),
                symmetry.soak2().seconds() < 4 && symmetry.soak2().result().passed());
        for (String[] t : shapeTargets) {
            b.append("| ").append(String.join(" | ", t)).append(" |\n");
        }
        b.append(String.format("%nThe packed engine ran mixed-big %.0f times faster than the readable model.%n",
                (double) readable.result().nanos() / big1.result().nanos()));

        b.append("\n## Time to first counterexample (exhaustive, shortest; first default scenario that catches it)\n\n");
        b.append("| variant | scenario | invariant | steps | states | seconds |\n|---|---|---|---|---|---|\n");
        for (String[] c : catches) {
            b.append("| ").append(String.join(" | ", c)).append(" |\n");
        }
        b.append("\n## Where the time goes (the median soak runs, in thread seconds)\n\n");
        b.append("| search | expansion | visited set | numbering and storing | other |\n|---|---|---|---|---|\n");
        for (Row r : List.of(soak1, soak2)) {
            b.append(phases(r));
        }
        b.append("""

                Expansion is unpacking each state, listing its steps, applying each, checking the invariants, packing
                and fingerprinting each successor, and the healing runs; the visited set is adding the fingerprint of
                every successor not known to be stored (its time a transition is over all of them);
                numbering is giving the new states their numbers and storing them in the tree and the
                next level; other is the threads' time in none of these (waiting for each other, summing the
                tallies, turning levels over, progress lines). Each figure is thread time summed over the threads,
                so on two threads they add up to twice the wall time.

                ## What limits it

                What limits the packed engine's speed, and what each optimisation spares, is in docs/performance.md
                and docs/engine.md; this page holds only what this run measured.
                """);
        return b.toString();
    }

    /** The 1, 5 and 15 minute load averages, as the kernel says them (or "unknown"). */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2] + " on " + Runtime.getRuntime().availableProcessors() + " cores";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private void warmUp(RelayLogic logic) {
        for (int threads : new int[] {1, 2}) {
            new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, HEAL_EVERY, threads, Engine.PACKED, progress)
                    .search(logic, ReferenceScenarios.mixedBig());
        }
    }

    /** One search, with the process's CPU time over it and the load average just before it. */
    private Run timed(RelayLogic logic, Scenario s, int maxStates, int threads, Engine engine, boolean symmetric) {
        return timed(logic, s, maxStates, threads, engine, symmetric, false);
    }

    private Run timed(RelayLogic logic, Scenario s, int maxStates, int threads, Engine engine, boolean symmetric,
                      boolean remembering) {
        System.gc();
        String load = loadAverage();
        long[] ticks = machineTicks();
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        BreadthFirstSearch bfs = new BreadthFirstSearch(maxStates, HEAL_EVERY, threads, engine, progress);
        bfs = remembering ? bfs.rememberingHealing() : bfs;
        SearchResult r = (symmetric ? bfs.overPollerSymmetry() : bfs).search(logic, s);
        long own = processCpuNanos() - cpu;
        long wall = System.nanoTime() - start;
        long[] after = machineTicks();
        double others = -1;
        if (ticks != null && after != null && after[1] > ticks[1] && wall > 0 && own > 0) {
            // the machine's busy share over the run, less this process's: what the others took, a core
            double busy = (double) (after[0] - ticks[0]) / (after[1] - ticks[1]);
            others = Math.max(0, busy - (double) own / wall / Runtime.getRuntime().availableProcessors());
        }
        return new Run(r, own, load, others);
    }

    /**
     * The whole machine's busy and total CPU time so far, in the kernel's ticks (the first line of /proc/stat: busy
     * is all but idle and I/O wait, and counts time the hypervisor gave another guest), or null where it does not say.
     */
    private static long[] machineTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i <= 8 && i < f.length; i++) { // user nice system idle iowait irq softirq steal
                total += Long.parseLong(f[i]);
            }
            return new long[] {total - Long.parseLong(f[4]) - Long.parseLong(f[5]), total};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The table row of runs of one search: the median run, and every run's time. */
    private static Row median(String label, int threads, List<Run> runs) {
        List<SearchResult> results = new ArrayList<>(runs.stream().map(Run::result).toList());
        results.sort(Comparator.comparingLong(SearchResult::nanos));
        return new Row(label, threads, results.get(results.size() / 2), results.stream().map(r -> r.nanos() / 1e9).toList());
    }

    /** The process's CPU time so far (all its threads), or 0 where the JVM does not say. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime()) : 0;
    }

    /**
     * Soak on one thread and on two, round after round: each round's pair, the speed-up, how busy the two threads kept
     * the process (CPU time over wall time), the load before each run, and how the crew's steps fell to its threads.
     */
    private String threadRounds(List<Run[]> rounds) {
        StringBuilder b = new StringBuilder("\n## Two threads against one, round by round (soak)\n\n");
        b.append("| round | load before (1 thread; 2 threads) | other processes' CPU during, a core (1 thread; 2 threads) "
                + "| 1 thread s | 2 threads s | speed-up | CPU/wall on 2 threads | steps together | alone: small "
                + "| alone: after a slow member | slow meetings |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int r = 0; r < rounds.size(); r++) {
            Run one = rounds.get(r)[0];
            Run two = rounds.get(r)[1];
            PhaseTimes.CrewCounts c = two.result().phases().crew();
            b.append(String.format("| %d | %s; %s | %s; %s | %.2f | %.2f | %.2fx | %.2f | %,d | %,d | %,d | %,d |%n", r + 1,
                    one.loadBefore(), two.loadBefore(), others(one), others(two), one.seconds(), two.seconds(), one.seconds() / two.seconds(),
                    (double) two.cpuNanos() / two.result().nanos(), c.together(), c.aloneSmall(), c.aloneAfterWaiting(),
                    c.slowMeetings()));
        }
        b.append("""

                A step of the search (a chunk's expansion beside the visited set's additions, or its numbering) runs on
                both threads, or on the calling one alone: when it is small (the meeting at its end would cost more than
                it saves), or for the few steps after one at whose end the calling thread waited for the other longer
                than half the time it worked itself and longer than a millisecond (a slow meeting: the other thread was
                off its core). CPU/wall near 2 means both threads worked throughout. Other processes' CPU is the
                machine's busy time over each run (/proc/stat, time given to other guests included) less this process's,
                a core: what competed with the search while it ran.
                """);
        return b.toString();
    }

    private static String others(Run r) {
        return r.othersPerCore() < 0 ? "unknown" : String.format("%.2f", r.othersPerCore());
    }

    /** The two-thread targets, judged round by round: >= 1.6x at low load, and never slower than one thread. */
    private static void twoThreadTargets(StringBuilder b, List<Run[]> rounds) {
        List<String> low = new ArrayList<>();
        boolean lowMet = true;
        boolean anyLow = false;
        List<String> all = new ArrayList<>();
        boolean neverSlower = true;
        for (Run[] pair : rounds) {
            double speedUp = pair[0].seconds() / pair[1].seconds();
            boolean lowLoad = pair[0].othersPerCore() >= 0 && pair[0].othersPerCore() < LOW_LOAD_PER_CORE
                    && pair[1].othersPerCore() >= 0 && pair[1].othersPerCore() < LOW_LOAD_PER_CORE;
            all.add(String.format("%.2fx", speedUp));
            neverSlower &= speedUp >= 1;
            if (lowLoad) {
                anyLow = true;
                low.add(String.format("%.2fx", speedUp));
                lowMet &= speedUp >= TWO_THREAD_TARGET;
            }
        }
        target(b, "two threads at least " + TWO_THREAD_TARGET + "x one on soak in every round at low load (other processes "
                + "took below " + LOW_LOAD_PER_CORE + " a core during both runs)", anyLow ? String.join(", ", low) : "no round ran at low load (rounds: "
                + String.join(", ", all) + ")", anyLow && lowMet);
        target(b, "two threads never slower than one, whatever the load", String.join(", ", all), neverSlower);
    }

    /** The full and the symmetric searches of soak and mixed-big, side by side. */
    private record Symmetry(String text, Run soak2) {
    }

    private Symmetry symmetry(Scenario soak, Scenario mixedBig, Run soakFull2) {
        StringBuilder b = new StringBuilder("\n## Symmetry over pollers (`--symmetry pollers`)\n\n");
        b.append("| scenario | search | threads | distinct states | transitions | healing runs | seconds | CPU s | verdict |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        Run big = timed(LogicCatalogue.correct(), mixedBig, 0, 2, Engine.PACKED, false);
        Run bigSymmetric = timed(LogicCatalogue.correct(), mixedBig, 0, 2, Engine.PACKED, true);
        Run soak1 = timed(LogicCatalogue.correct(), soak, soakStates, 1, Engine.PACKED, true);
        Run soak2 = timed(LogicCatalogue.correct(), soak, soakStates, 2, Engine.PACKED, true);
        Run remembered = timed(LogicCatalogue.correct(), soak, soakStates, 2, Engine.PACKED, true, true);
        for (Run r : List.of(big, bigSymmetric, soakFull2, soak1, soak2, remembered)) {
            SearchResult s = r.result();
            b.append(String.format("| %s | %s | %d | %,d | %,d | %,d | %.2f | %.2f | %s |%n", s.scenario().name(),
                    (s.engine().contains("symmetric") ? "symmetric" : "full") + (r == remembered ? ", healing remembered ("
                    + String.format("%,d", s.phases().healingRemembered()) + " runs decided by the memory)" : ""),
                    r == soak1 ? 1 : 2, s.states(), s.transitions(), s.healingChecks(), r.seconds(), r.cpuNanos() / 1e9,
                    s.verdictLine()));
        }
        b.append(String.format("%nSoak: %.1f times fewer states over symmetry (%,d against %,d); mixed-big: %.1f times.%n",
                (double) soakFull2.result().states() / soak2.result().states(), soak2.result().states(),
                soakFull2.result().states(), (double) big.result().states() / bigSymmetric.result().states()));
        b.append("""
                A symmetric search keeps one state per permutation of the pollers and heals every distinct permutation
                of each state it heals (round-robin healing schedules pollers in scenario order, so one permutation's
                verdict does not stand for another's): its healing runs are those of the full search's states that
                its states stand for. With the healing memory each worker remembers, by state and by the turn modulo
                the period of the round-robin, where its runs went, and a run that reaches a remembered state and turn
                stops there with the verdict (exact: the counts and verdict are the same); the last row gives its time.
                """);
        return new Symmetry(b.toString(), soak2);
    }

    /**
     * Each shape (a user's logic) beside the shipped correct logic, interleaved (the reference, then the shape), on
     * mixed-big and on soak: states/s, CPU ns/state and bytes/state, and the ratios, against the 1.5x target, judged
     * on CPU time a state (which the machine's load does not stretch) and on bytes a state.
     */
    private String shapesSection(Scenario soak, Scenario mixedBig, List<String[]> targets) {
        for (RelayLogic shape : shapes) {
            warmUp(shape);
        }
        StringBuilder b = new StringBuilder("\n## Relay shapes beside the reference logic (one thread)\n\n");
        b.append("Each shape is a logic in a user's jar (`").append(shapes.stream().map(l -> CheckedLogic.unwrap(l)
                .getClass().getName()).collect(java.util.stream.Collectors.joining("`, `"))).append("`), searched right after the "
                + "shipped correct logic on the same scenario.\n\n");
        b.append("| scenario | logic | engine | distinct states | seconds | states/s | CPU ns/state | bytes/state | CPU ratio "
                + "| bytes ratio | within 1.5x |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Scenario s : List.of(mixedBig, soak)) {
            int bound = s == soak ? shapeStates : 0;
            for (RelayLogic shape : shapes) {
                Run reference = timed(LogicCatalogue.correct(), s, bound, 1, Engine.AUTO, false);
                Run user = timed(shape, s, bound, 1, Engine.AUTO, false);
                double cpu = user.cpuPerState() / reference.cpuPerState();
                double bytes = user.bytesPerState() / reference.bytesPerState();
                boolean met = cpu <= SHAPE_TARGET && bytes <= SHAPE_TARGET;
                String scenario = s.name() + (bound == 0 ? "" : " (first " + String.format("%,d", bound) + " states)");
                b.append(shapeRow(scenario, reference, "", ""));
                b.append(shapeRow(scenario, user, String.format("%.2fx", cpu), String.format("%.2fx", bytes) + " | "
                        + (met ? "yes" : "**no**")));
                targets.add(new String[] {CheckedLogic.unwrap(shape).getClass().getSimpleName() + " within " + SHAPE_TARGET
                        + "x of the reference's CPU time and bytes a state on " + scenario, String.format("%.2fx, %.2fx", cpu, bytes),
                        met ? "yes" : "**no**"});
                long shapeStates = user.result().states();
                long referenceStates = reference.result().states();
                if (shapeStates > SIZE_GAP * referenceStates || referenceStates > SIZE_GAP * shapeStates) {
                    // a space many times larger or smaller than the reference's: the visited set's place in the
                    // caches, or the fixed costs of a search, weigh on its CPU a state; so also the reference on a
                    // space of the shape's size
                    Run sameSize = timed(LogicCatalogue.correct(), soak, (int) Math.min(Integer.MAX_VALUE, shapeStates), 1,
                            Engine.AUTO, false);
                    double sized = user.cpuPerState() / sameSize.cpuPerState();
                    String label = "soak (first " + String.format("%,d", shapeStates) + " states: the size of "
                            + user.result().logic().id() + "'s space on " + scenario + ")";
                    b.append(shapeRow(label, sameSize, "", ""));
                    targets.add(new String[] {CheckedLogic.unwrap(shape).getClass().getSimpleName() + " on " + scenario
                            + " against the reference on a space of its size (information; the target is the line above)",
                            String.format("%.2fx CPU a state", sized), sized <= SHAPE_TARGET ? "within " + SHAPE_TARGET + "x" : "over " + SHAPE_TARGET + "x"});
                }
            }
        }
        b.append("""

                CPU ratio: the shape's CPU time a state over the reference's; bytes ratio: the shape's bytes a stored state
                over the reference's (the visited set and the tree; the logic's memoised answers, a few kilobytes a
                worker, are not counted). A shape's space is its own (a per-row version, dated markers and renumbered
                tokens make other states), so its counts differ from the reference's. Where it is more than 4 times
                larger or smaller, the reference also searches soak's first states up to the shape's count: a
                visited set far outside the caches costs more a state, a search of a few thousand states is mostly
                its fixed costs, and that row shows how much of a ratio is the space's size rather than the shape.
                """);
        return b.toString();
    }

    private static String shapeRow(String scenario, Run r, String cpuRatio, String rest) {
        SearchResult s = r.result();
        return String.format("| %s | %s | %s | %,d%s | %.2f | %,.0f | %,.0f | %.1f | %s | %s |%n", scenario, s.logic().id(),
                s.engine(), s.states(), s.incomplete().isEmpty() ? "" : " (bound)", r.seconds(), s.statesPerSecond(),
                r.cpuPerState(), r.bytesPerState(), cpuRatio, rest.isEmpty() ? " | " : rest);
    }

    private Row measure(String label, Scenario s, int maxStates, int threads, Engine engine, int runs) {
        return measure(LogicCatalogue.correct(), label, s, maxStates, threads, engine, runs);
    }

    private Row measure(RelayLogic logic, String label, Scenario s, int maxStates, int threads, Engine engine, int runs) {
        List<SearchResult> results = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            System.gc();
            results.add(new BreadthFirstSearch(maxStates, HEAL_EVERY, threads, engine, progress).search(logic, s));
        }
        results.sort(Comparator.comparingLong(SearchResult::nanos));
        return new Row(label, threads, results.get(runs / 2), results.stream().map(r -> r.nanos() / 1e9).toList());
    }

    /** A row of the phase table: each task's thread seconds, its share of them, and its cost per unit of work. */
    private static String phases(Row r) {
        SearchResult s = r.result();
        PhaseTimes p = s.phases();
        long total = s.nanos() * r.threads();
        return String.format("| %s, %d thread%s | %s; %.0f ns a state | %s; %.0f ns a transition | %s | %s |%n",
                s.scenario().name(), r.threads(), r.threads() == 1 ? "" : "s",
                share(p.expandNanos(), total), (double) p.expandNanos() / s.states(),
                share(p.visitedNanos(), total), (double) p.visitedNanos() / s.transitions(),
                share(p.numberNanos(), total), share(p.otherNanos(s.nanos(), r.threads()), total));
    }

    private static String share(long nanos, long total) {
        return String.format("%.2f s (%.0f%%)", nanos / 1e9, 100.0 * nanos / total);
    }

    private static String rate(Row r) {
        return String.format("%,.0f/s", r.result().statesPerSecond());
    }

    /** A soak rate target, judged on the median run, with the rate over its first 3 M states beside it if measured. */
    private static void soakTarget(StringBuilder b, String what, Row row, Row firstStates, double statesPerSecond) {
        String measured = rate(row) + (firstStates == null ? "" : " (first 3 M states: " + rate(firstStates) + ")");
        target(b, what, measured, row.result().statesPerSecond() >= statesPerSecond);
    }

    private static void target(StringBuilder b, String what, String measured, boolean met) {
        b.append("| ").append(what).append(" | ").append(measured).append(" | ").append(met ? "yes" : "**no**").append(" |\n");
    }

    private static String hugePages() {
        try {
            return Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
