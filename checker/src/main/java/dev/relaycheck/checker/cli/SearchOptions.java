package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.space.Judging;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Options shared by the exhaustive commands. */
final class SearchOptions {
    @Option(names = "--max-states", paramLabel = "N",
            description = "stop an exhaustive search after N distinct states (default: what the heap holds)")
    Integer maxStates;

    @Option(names = "--heal-every", paramLabel = "K", defaultValue = "8",
            description = "run the EVENTUAL_DELIVERY healing phase from every K-th new state, besides every dead end "
                    + "(1 = every state; default ${DEFAULT-VALUE})")
    int healEvery;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "auto",
            description = "state space of exhaustive search: auto (packed when it takes the logic, else readable), "
                    + "packed, or readable (the model itself; same counts, slower); default ${DEFAULT-VALUE}")
    String engine;

    @Option(names = "--tokens", paramLabel = "MODE", defaultValue = "auto",
            description = "fencing tokens: exact, canonical (renumbered by rank after every step: merges states that "
                    + "differ only in token values, sound for a logic that only compares tokens), or auto (exact while the "
                    + "space stays within the tokens a relay whose leases last can issue, else canonical); default ${DEFAULT-VALUE}")
    String tokens;

    @Option(names = "--symmetry", paramLabel = "MODE", defaultValue = "off",
            description = "pollers: keep one state per permutation of the pollers where they are interchangeable (the "
                    + "logic's decisions do not depend on which poller asks: probed), heal every permutation, rebuild "
                    + "counterexamples on the concrete pollers; off: every state (default ${DEFAULT-VALUE})")
    String symmetry;

    @Option(names = "--first-violation",
            description = "end each exhaustive search at its first violation, a shortest counterexample (default: go on "
                    + "and report every invariant broken, each with its shortest counterexample; a state reached by a step "
                    + "that broke one is not expanded either way)")
    boolean firstViolation;

    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "folder for reports and replay records, checked writable before the search (default ${DEFAULT-VALUE})")
    Path results;

    @Option(names = "--threads", paramLabel = "N",
            description = "worker threads of the exhaustive search, 1 to " + Threads.PER_CORE + " per core; any number gives the "
                    + "same result (default: all cores)")
    Integer threads;

    /** --results, once it is known to be writable. */
    Path results() {
        return ResultsDir.requireWritable(results);
    }

    /** The configured search; every bad bound is a usage error. */
    BreadthFirstSearch bfs(ProgressPrinter progress) {
        int workers = Threads.resolve(threads);
        if (maxStates != null && maxStates < 1) {
            throw new UsageException("--max-states must be at least 1");
        }
        int max = maxStates == null ? BreadthFirstSearch.HEAP_BOUND : maxStates;
        if (healEvery < 1) {
            throw new UsageException("--heal-every must be at least 1");
        }
        BreadthFirstSearch bfs = new BreadthFirstSearch(max, healEvery, workers, engine(), tokens(), progress)
                .judging(firstViolation ? Judging.FIRST : Judging.EVERY);
        return switch (symmetry) {
            case "off" -> bfs;
            case "pollers" -> {
                if ("readable".equals(engine)) {
                    throw new UsageException("--symmetry pollers runs on the packed engine: drop --engine readable, or --symmetry");
                }
                yield bfs.overPollerSymmetry();
            }
            default -> throw new UsageException("--symmetry must be off or pollers, not '" + symmetry + "'");
        };
    }

    private BreadthFirstSearch.Tokens tokens() {
        return switch (tokens) {
            case "auto" -> BreadthFirstSearch.Tokens.AUTO;
            case "exact" -> BreadthFirstSearch.Tokens.EXACT;
            case "canonical" -> BreadthFirstSearch.Tokens.CANONICAL;
            default -> throw new UsageException("--tokens must be auto, exact or canonical, not '" + tokens + "'");
        };
    }

    private BreadthFirstSearch.Engine engine() {
        return switch (engine) {
            case "auto" -> BreadthFirstSearch.Engine.AUTO;
            case "packed" -> BreadthFirstSearch.Engine.PACKED;
            case "readable" -> BreadthFirstSearch.Engine.READABLE;
            default -> throw new UsageException("--engine must be auto, packed or readable, not '" + engine + "'");
        };
    }
}
