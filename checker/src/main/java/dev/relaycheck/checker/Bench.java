package dev.relaycheck.checker;

import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;

/** The figures of results/bench.md: speed, memory per state, time to first counterexample. */
public final class Bench {
    private final int soakStates;
    private final Progress progress;

    public Bench(int soakStates, Progress progress) {
        this.soakStates = soakStates;
        this.progress = progress;
    }

    public String run() {
        StringBuilder b = new StringBuilder("# relaycheck explorer benchmark\n\n");
        b.append(String.format("JVM %s, %d cores available, max heap %d MiB.%n%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20));
        b.append("## Exhaustive search\n\n| scenario | threads | distinct states | transitions | seconds | states/s | table bytes/state | complete |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        for (int threads : new int[] {1, 2}) {
            row(b, ReferenceScenarios.soak(), soakStates, threads);
        }
        row(b, ReferenceScenarios.mixedBig(), Integer.MAX_VALUE, 1);
        row(b, ReferenceScenarios.mixedBig(), Integer.MAX_VALUE, 2);
        b.append("\nHealing (EVENTUAL_DELIVERY) runs from every 8th state and every dead end, as in `check`.\n");
        b.append("\n## Time to first counterexample (exhaustive, shortest)\n\n| variant | scenario | invariant | steps | states | seconds |\n|---|---|---|---|---|---|\n");
        for (RelayLogic v : LogicCatalogue.variants()) {
            for (Scenario s : ReferenceScenarios.defaults()) {
                SearchResult r = new BreadthFirstSearch(Integer.MAX_VALUE, 8, 1, progress).search(v, s);
                if (r.violated()) {
                    b.append(String.format("| %s | %s | %s | %d | %,d | %.3f |%n", v.id(), s.name(),
                            r.counterexample().get().invariant(), r.counterexample().get().path().size(), r.states(), r.nanos() / 1e9));
                    break;
                }
            }
        }
        b.append("""

                ## What limits it

                The explorer runs the readable model itself: every transition builds a new immutable `RelayState`
                (records, sorted maps), then fingerprints it and judges it against every invariant. That costs a few
                microseconds a transition, so distinct states per second are in the tens of thousands, far below the
                1.5 M (one core) and 2.5 M (two cores) targets, and `mixed-big` takes seconds, not under one. The
                visited set is already compact (a primitive open-addressing table of 64-bit fingerprints plus a parent
                id and a choice byte: the bytes/state column, under the 32-byte target); the frontier of whole states
                is what bounds memory (hence `--max-states`). Reaching the targets needs a packed-long encoding of the
                state with its own transition code, proven equal to the readable model on every count; that second
                engine is not built yet. Every catalogue variant is caught in well under a second.
                Measured on a shared 2-core machine: expect noise between runs.
                """);
        return b.toString();
    }

    private void row(StringBuilder b, Scenario s, int maxStates, int threads) {
        System.gc();
        SearchResult r = new BreadthFirstSearch(maxStates, 8, threads, progress).search(LogicCatalogue.correct(), s);
        b.append(String.format("| %s | %d | %,d | %,d | %.2f | %,.0f | %.1f | %s |%n", s.name(), threads, r.states(),
                r.transitions(), r.nanos() / 1e9, r.statesPerSecond(), (double) r.tableBytes() / r.states(),
                r.incomplete().isEmpty() ? "yes" : "no (bound " + maxStates + ")"));
    }
}
