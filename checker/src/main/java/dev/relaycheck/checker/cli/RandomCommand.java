package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.checker.walk.PctScheduler;
import dev.relaycheck.checker.walk.RandomScheduler;
import dev.relaycheck.checker.walk.Scheduler;
import dev.relaycheck.checker.walk.WalkSearch;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.shard.Shard;
import dev.relaycheck.model.shard.ShardFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** Seeded random or PCT walks for scenarios too big to exhaust. */
@Command(name = "random",
        description = "Seeded random-walk or PCT search (default scenario: soak); every invariant broken is reported by "
                + "the lowest-numbered walk that broke it, shrunk and printed with its replay line, and its record written "
                + "under DIR/failures/.")
final class RandomCommand implements Callable<Integer> {
    @Mixin
    LogicOptions logic = new LogicOptions();
    @Mixin
    ScenarioOptions scenarios = new ScenarioOptions();

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "base seed; walk i uses SplitMix64.derive(seed, i) (default ${DEFAULT-VALUE})")
    long seed;
    @Option(names = "--runs", paramLabel = "N", defaultValue = "20000", description = "walks per scenario (default ${DEFAULT-VALUE})")
    int runs;
    @Option(names = "--time-budget", paramLabel = "DURATION",
            description = "stop taking new walks after this long per scenario, e.g. 30s or 2m")
    String timeBudget;
    @Option(names = "--strategy", paramLabel = "random|pct", defaultValue = "pct", description = "random or pct (default ${DEFAULT-VALUE})")
    String strategy;
    @Option(names = "--pct-depth", paramLabel = "N", defaultValue = "3", description = "PCT bug depth d (default ${DEFAULT-VALUE})")
    int pctDepth;
    @Option(names = "--max-depth", paramLabel = "N", defaultValue = "200", description = "steps per walk at most (default ${DEFAULT-VALUE})")
    int maxDepth;
    @Option(names = "--heal-every", paramLabel = "K", defaultValue = "" + WalkSearch.DEFAULT_HEAL_EVERY,
            description = "run the EVENTUAL_DELIVERY healing phase from the state after every K-th step of a walk, "
                    + "besides its last state (default ${DEFAULT-VALUE})")
    int healEvery;
    @Option(names = "--threads", paramLabel = "N",
            description = "worker threads, 1 to " + Threads.PER_CORE + " per core; any number gives the same report (default: all cores)")
    Integer threads;
    @Option(names = "--no-shrink", description = "report the failing walk as found")
    boolean noShrink;
    @Option(names = "--first-violation", description = "end each scenario's walks at the lowest-numbered failing walk "
            + "(default: run every walk and report every invariant broken, each by the lowest-numbered walk that broke it)")
    boolean firstViolation;
    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "folder for replay records, checked writable before the walks (default ${DEFAULT-VALUE})")
    Path results;
    @Mixin
    ShardOption shard = new ShardOption();
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RelayLogic subject = logic.load();
        WalkSearch search = search();
        List<Scenario> chosen = scenarios.resolve(List.of(ReferenceScenarios.soak()));
        ResultsDir.requireWritable(results);
        long budget = parseBudget();
        Shard part = shard.shard();
        List<SearchResult> found = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (Scenario s : chosen) {
            long deadline = budget > 0 ? System.nanoTime() + budget : 0;
            WalkSearch.Walks w = search.search(subject, s, seed, runs, deadline, part);
            if (!part.whole()) {
                out.println("shard " + part + ": walks i of 0.." + (runs - 1) + " with i mod " + part.count() + " = " + (part.index() - 1));
            }
            Failures.report(out, results, w.result(), ", seed " + seed);
            found.add(w.result());
            rows.addAll(WalkTallies.rows(w));
        }
        if (!part.whole()) {
            return shard.finish(out, "random", spec, results, rows);
        }
        return ExitCodes.of(found);
    }

    /**
     * The result of one run over the walks the shards in {@code files} ran, for each scenario: the same counts and
     * findings as that run (a failure walked and shrunk again here from its walk number), records under
     * {@code results}. Exits as that run would.
     */
    int merge(List<ShardFile> files, PrintWriter out, Path results) {
        RelayLogic subject = logic.load();
        WalkSearch search = search();
        List<SearchResult> found = new ArrayList<>();
        List<Verdict> recorded = new ArrayList<>();
        for (Scenario s : scenarios.resolve(List.of(ReferenceScenarios.soak()))) {
            WalkTallies t = WalkTallies.of(files, s.name());
            SearchResult r = search.merge(subject, s, seed, t.tallies(), t.nanos());
            Failures.report(out, results, r, ", seed " + seed + ", " + files.size() + " shards");
            found.add(r);
            t.recheckFaults().forEach(line -> out.println("  " + line));
            recorded.addAll(t.recheckVerdicts());
        }
        recorded.add(Verdict.ofAll(found));
        return ExitCodes.of(Verdict.worst(recorded));
    }

    private WalkSearch search() {
        if (runs < 1 || maxDepth < 1 || pctDepth < 1 || healEvery < 1) {
            throw new UsageException("--runs, --max-depth, --pct-depth and --heal-every must be at least 1");
        }
        Scheduler.Factory factory = switch (strategy) {
            case "random" -> RandomScheduler.factory();
            case "pct" -> PctScheduler.factory(pctDepth, maxDepth / 2);
            default -> throw new UsageException("unknown --strategy '" + strategy + "' (random or pct)");
        };
        WalkSearch search = new WalkSearch(factory, maxDepth, healEvery, Threads.resolve(threads), !noShrink,
                new ProgressPrinter(spec.commandLine().getErr()));
        return firstViolation ? search.firstViolationOnly() : search;
    }

    private long parseBudget() {
        if (timeBudget == null) {
            return 0;
        }
        try {
            Duration d = Duration.parse("PT" + timeBudget.toUpperCase());
            if (d.isNegative() || d.isZero()) {
                throw new UsageException("--time-budget must be positive");
            }
            return d.toNanos();
        } catch (DateTimeParseException e) {
            throw new UsageException("--time-budget '" + timeBudget + "' is not a duration like 30s, 2m or 1h");
        }
    }
}
