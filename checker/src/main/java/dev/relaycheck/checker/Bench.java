package dev.relaycheck.checker;

import dev.relaycheck.checker.search.PhaseTimes;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;

import dev.relaycheck.checker.search.BreadthFirstSearch;

import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;

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

    private final int soakStates;
    private final int repeats;
    private final Progress progress;
    private final RelayLogic userLogic; // measured beside the shipped correct logic, or null

    /**
     * {@code soakStates}: a bound on soak's distinct states, or 0 to search all of it; {@code repeats}: how
     * often each soak search runs (the report gives the median run and the range).
     */
    public Bench(int soakStates, int repeats, Progress progress) {
        this(soakStates, repeats, progress, null);
    }

    /** {@code userLogic}: a logic to measure side by side with the shipped correct one (null: none). */
    public Bench(int soakStates, int repeats, Progress progress, RelayLogic userLogic) {
        this.soakStates = soakStates;
        this.repeats = repeats;
        this.progress = progress;
        this.userLogic = userLogic;
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

    public String run() {
        Scenario soak = ReferenceScenarios.soak();
        Scenario mixedBig = ReferenceScenarios.mixedBig();
        warmUp();
        String inCache = " (first " + String.format("%,d", IN_CACHE) + " states)";
        String userSection = userLogic == null ? "" : userBesideShipped(soak, mixedBig);
        Row soak1 = measure("", soak, soakStates, 1, Engine.PACKED, repeats);
        Row soak2 = measure("", soak, soakStates, 2, Engine.PACKED, repeats);
        boolean bigSoak = soakStates == 0 || soakStates > IN_CACHE; // else its first 3 M states are all it searched
        Row cached1 = bigSoak ? measure(inCache, soak, IN_CACHE, 1, Engine.PACKED, repeats) : soak1;
        Row cached2 = bigSoak ? measure(inCache, soak, IN_CACHE, 2, Engine.PACKED, repeats) : soak2;
        Row big1 = measure("", mixedBig, 0, 1, Engine.PACKED, 1);
        Row big2 = measure("", mixedBig, 0, 2, Engine.PACKED, 1);
        Row readable = measure("", mixedBig, 0, 1, Engine.READABLE, 1);
        List<Row> rows = bigSoak ? List.of(soak1, soak2, cached1, cached2, big1, big2, readable)
                : List.of(soak1, soak2, big1, big2, readable);

        StringBuilder b = new StringBuilder("# relaycheck explorer benchmark\n\n");
        b.append(String.format("Load average %s.%n", loadAverage()));
        b.append(String.format("JVM %s, %d cores available, max heap %,d MiB; transparent huge pages: system %s, JVM %s.%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, hugePages(),
                ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:+UseTransparentHugePages") ? "on" : "off"));
        b.append("Every search is exhaustive breadth-first on the correct logic, with healing (EVENTUAL_DELIVERY) from every ")
                .append(HEAL_EVERY).append("th state and every dead end, as `check` runs it; each follows a warm-up search,\n")
                .append("so JIT compilation is not timed. Measured on a shared machine, where identical runs differ by up to a fifth: each soak\n")
                .append("search runs ").append(repeats).append(" times, and its row gives the median run, with the fastest and slowest times in brackets.\n\n");
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

        List<String[]> catches = new ArrayList<>();
        double slowestCatch = 0;
        for (RelayLogic v : LogicCatalogue.variants()) {
            for (Scenario s : ReferenceScenarios.defaults()) {
                SearchResult r = new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, HEAL_EVERY, 1, Engine.AUTO, progress)
                        .judging(dev.relaycheck.checker.search.Judging.FIRST).search(v, s);
                if (r.violated()) {
                    slowestCatch = Math.max(slowestCatch, r.nanos() / 1e9);
                    catches.add(new String[] {v.id(), s.name(), r.counterexample().get().invariant().name(),
                            Integer.toString(r.counterexample().get().path().size()), String.format("%,d", r.states()),
                            String.format("%.3f", r.nanos() / 1e9)});
                    break;
                }
            }
        }

        b.append(userSection);
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
                every successor not known to be stored (52% of soak's; its time a transition is over all of them);
                numbering is giving the new states their numbers and storing them in the tree and the
                next level; other is the threads' time in none of these (waiting for each other, summing the
                tallies, turning levels over, progress lines). Each figure is thread time summed over the threads,
                so on two threads they add up to twice the wall time.

                ## What limits it

                The packed engine keeps a state as a few 64-bit words (3 for soak), expands it in an int scratch with
                a journal of the slots each step writes (apply, pack the change, undo), and fingerprints the words.
                Timed alone on a level of 64 Ki soak states (in cache, the fastest of 200 passes), a state cost
                about 55 ns to unpack (42 since each field is taken on its own, not by shifting a word along), 40 to
                list its steps, 200 to apply and undo its 5.7 steps with their packing (before the search stopped
                taking the steps it knows about, below: it now takes 2.75 a state), and 50 to buffer its
                successors; the fingerprints hide in the rest; a healing run costs about 500 ns (7 steps on
                average), one state in 8. Copying the scratch for each step instead of keeping a journal was no
                faster. A reference written per step costs far more than it looks: storing the successor's buffer
                in a field and clearing it after each step ran G1's write barrier 95 million times a search, and
                with two threads the expansion's median went from 12.5 to 9.3 thread seconds once the field was
                written only when the buffer changes (8 interleaved runs each).

                The visited set is what falls off as the search grows: past a few million states the set (hundreds
                of MiB for soak) is far outside the caches, so each lookup is a miss to main memory; compare soak's
                first 3 M states with all of it. So the search looks up only what it must. A state u reached from s
                by step b, then step a, where a commutes with b (by their footprints, neither writes a part of the
                state the other reads or writes) and s lists a before b, leads where s's successor by a leads by b;
                that successor was found before u and expanded before it, so u's successor by a was looked up
                already, and the search only counts it. That spares 42% of soak's 95 million lookups (and every
                count and output stays the same: 212 explore outputs compared byte for byte). On one thread the
                visited set's time fell from 4.47 to 3.08 s and the expansion's rose from 6.62 to 7.29 (the
                footprints), the search's median from 11.81 to 11.11 s (6 interleaved runs each). Nor does the
                search take such a step: a reads nothing b writes, so it shows in u what it showed in s, and each
                state keeps, with the step that found it, what the steps before that one showed in its parent (its
                route). That took the expansion's median from 7.51 to 6.44 s and the search's from 11.91 to 10.46
                (8 interleaved runs each). The route also knows where some crashes lead: after a step that wrote
                only a busy poller's slots (a duplicate delivery, a stale acknowledgement), its crash leads where
                the crash from the parent led, and so on through steps touching nothing of that poller. That
                counts 5.8 million more transitions without taking them, 46 million in all. With the faster
                unpacking it took the fastest of 16 interleaved runs from 9.86 to 9.42 s, and the visited set's
                from 2.86 to 2.61, though the medians moved less than the noise (10.34 against 10.29).
                Touching a batch of slots before probing them lets the misses overlap, and huge pages spare the TLB
                (in a microbenchmark, grouping a batch by region of the table to spare it further measured the
                same, 23 to 25 ns a lookup). Growing the set costs little in itself (0.1 s to rehash into 256 MiB
                that was used before), but memory the process has not touched before is slow to come by on a
                virtual machine (here a fresh 256 MiB array took 0.3 to 0.75 s), and a set sized for soak from the
                start (an experiment: a search cannot know its size) ran soak about 1.2 s faster on one thread. A
                set at most 60% full instead of 70% measured no faster. Checking each level's successors against
                sorted runs instead of a hash table (delayed duplicate detection, as disk-based model checkers do)
                was slower in a replay of soak-sized levels: 67 to 89 ns a successor against 42 to 54.

                With two threads the search runs as a pipeline: the visited set's two shards take a chunk of 64 Ki
                states' successors while the next chunk is expanded in 64 parts, each task going to whichever thread
                is free, shards dealt out among the parts so that one thread tends to add (mostly waiting on main
                memory) while the other expands; then both number the chunk's new states. The threads meet twice a
                chunk and spin, not park, between. Chunks of 2 to 256 Ki states measured no faster than 64 Ki. At
                each meeting a thread waits for the last task the other took, so the parts are short: with 8 parts a
                chunk (about 4 ms each) the threads waited about a second of thread time a search, with 64 (about
                half a millisecond) 0.42 s, and the search's median fell from 6.99 to 6.47 s (3 interleaved runs
                each; an earlier trial, when the visited set's tasks were twice as long, found no difference). Run
                side by side, the two cores slow each other (they share memory bandwidth and, it seems, more of
                their host): in 22 bench runs on 2026-11-30 a state's expansion cost up to 62% more thread time on
                two threads than on one, which the table above shows for this run; and in some runs the host slows
                even one thread by a third (in ten bench runs of this code, two expanded a state in 430 and 469 ns
                against 340 to 362 in the other eight).
                """);
        return b.toString();
    }

    /**
     * The user's logic and the shipped correct one, each search run the same way, interleaved (shipped, then
     * user, per row) so the machine's load falls on both alike; states/s, bytes a state and their ratios, against
     * the target of at most 1.5x either way. The user's logic runs on the packed engine through its memoised
     * tables, whose bytes (a few per distinct question, not per state) are given apart.
     */
    private String userBesideShipped(Scenario soak, Scenario mixedBig) {
        warmUp(userLogic);
        StringBuilder b = new StringBuilder("\n## A user's logic beside the shipped one\n\n");
        b.append(String.format("User logic `%s` (%s), shipped logic `correct`; load average before: %s.%n%n",
                userLogic.id(), dev.relaycheck.model.CheckedLogic.unwrap(userLogic).getClass().getName(), loadAverage()));
        b.append("| scenario | threads | shipped states/s | user states/s | speed ratio | shipped bytes/state | user bytes/state "
                + "| bytes ratio | same counts | within 1.5x |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (Scenario s : List.of(mixedBig, soak)) {
            int bound = s == soak ? soakStates : 0;
            int runs = s == soak ? repeats : 1;
            for (int threads : new int[] {1, 2}) {
                Row shipped = measure(LogicCatalogue.correct(), "", s, bound, threads, Engine.PACKED, runs);
                Row user = measure(userLogic, "", s, bound, threads, Engine.PACKED, runs);
                double speed = shipped.result().statesPerSecond() / user.result().statesPerSecond();
                double bytes = user.bytesPerState() / shipped.bytesPerState();
                SearchResult a = shipped.result();
                SearchResult u = user.result();
                boolean same = a.states() == u.states() && a.transitions() == u.transitions() && a.depth() == u.depth()
                        && a.witnesses().equals(u.witnesses()) && a.engine().equals(u.engine());
                b.append(String.format("| %s%s | %d | %,.0f | %,.0f | %.2fx | %.1f | %.1f | %.2fx | %s | %s |%n", s.name(),
                        bound == 0 ? "" : " (first " + String.format("%,d", bound) + " states)", threads,
                        shipped.result().statesPerSecond(), user.result().statesPerSecond(), speed, shipped.bytesPerState(),
                        user.bytesPerState(), bytes, same ? "yes" : "**no**", speed <= 1.5 && bytes <= 1.5 ? "yes" : "**no**"));
            }
        }
        b.append(String.format("%nLoad average after: %s. Speed ratio: the shipped logic's states/s over the user's (above 1: "
                + "the user's is slower); bytes ratio: the user's bytes a stored state over the shipped logic's.%n", loadAverage()));
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

    /** JIT-compiles the search on a mid-sized space before anything is timed. */
    private void warmUp() {
        for (int threads : new int[] {1, 2}) {
            new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, HEAL_EVERY, threads, Engine.PACKED, progress)
                    .search(LogicCatalogue.correct(), ReferenceScenarios.mixedBig());
        }
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
