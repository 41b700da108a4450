package dev.relaycheck.checker.search;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.space.Fingerprint;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one search of one logic in one scenario found.
 *
 * @param strategy        bfs, random or pct
 * @param engine          the state space that ran it: packed or readable (same counts, different speed)
 * @param states          distinct states (bfs) or states visited (walks)
 * @param transitions     transitions taken
 * @param depth           deepest level reached (bfs) or longest walk
 * @param runs            walks run (0 for bfs)
 * @param healingChecks   healing phases run for EVENTUAL_DELIVERY
 * @param nanos           wall time (reported, never used to shape a result)
 * @param witnesses       how often each witness outcome was seen
 * @param counterexamples the violations: for bfs one per invariant broken, each its shortest trace, shortest first
 *                        (or the first alone, for a search that ends at it); for walks the first, shrunk
 * @param incomplete      why the search stopped before covering its space, if it did
 * @param tableBytes      memory of the visited set (bfs)
 * @param phases          where the wall time went (bfs; {@link PhaseTimes#NONE} for walks)
 * @param logicFault      the logic under test threw or answered one question two ways: the search stopped there
 * @param judged          the invariants the search judged (a violation of another is none to it)
 */
public record SearchResult(String strategy, String engine, RelayLogic logic, Scenario scenario, long states, long transitions,
                           int depth, long runs, long healingChecks, long nanos, Map<Witness, Long> witnesses,
                           List<Counterexample> counterexamples, Optional<String> incomplete, long tableBytes,
                           PhaseTimes phases, Optional<LogicFault> logicFault, Set<Invariant> judged) {

    /** A search of every invariant that found at most one violation. */
    public SearchResult(String strategy, String engine, RelayLogic logic, Scenario scenario, long states, long transitions,
                        int depth, long runs, long healingChecks, long nanos, Map<Witness, Long> witnesses,
                        Optional<Counterexample> counterexample, Optional<String> incomplete, long tableBytes,
                        PhaseTimes phases, Optional<LogicFault> logicFault) {
        this(strategy, engine, logic, scenario, states, transitions, depth, runs, healingChecks, nanos, witnesses,
                counterexample.stream().toList(), incomplete, tableBytes, phases, logicFault, EnumSet.allOf(Invariant.class));
    }

    /** A search in which the logic kept its contract. */
    public SearchResult(String strategy, String engine, RelayLogic logic, Scenario scenario, long states, long transitions,
                        int depth, long runs, long healingChecks, long nanos, Map<Witness, Long> witnesses,
                        Optional<Counterexample> counterexample, Optional<String> incomplete, long tableBytes,
                        PhaseTimes phases) {
        this(strategy, engine, logic, scenario, states, transitions, depth, runs, healingChecks, nanos, witnesses,
                counterexample, incomplete, tableBytes, phases, Optional.empty());
    }

    public SearchResult {
        EnumMap<Witness, Long> w = new EnumMap<>(Witness.class);
        w.putAll(witnesses);
        witnesses = w;
        counterexamples = List.copyOf(counterexamples);
        judged = java.util.Collections.unmodifiableSet(EnumSet.copyOf(judged));
    }

    /** The same result, saying another engine ran it. */
    public SearchResult withEngine(String name) {
        return new SearchResult(strategy, name, logic, scenario, states, transitions, depth, runs, healingChecks, nanos,
                witnesses, counterexamples, incomplete, tableBytes, phases, logicFault, judged);
    }

    /** The same result, as the result of searching {@code other} (which took exactly the same steps). */
    public SearchResult withLogic(RelayLogic other) {
        return new SearchResult(strategy, engine, other, scenario, states, transitions, depth, runs, healingChecks, nanos,
                witnesses, counterexamples, incomplete, tableBytes, phases, logicFault, judged);
    }

    /** The same result, saying it judged {@code invariants} only. */
    public SearchResult withJudged(Set<Invariant> invariants) {
        return new SearchResult(strategy, engine, logic, scenario, states, transitions, depth, runs, healingChecks, nanos,
                witnesses, counterexamples, incomplete, tableBytes, phases, logicFault, invariants);
    }

    /** The same result with {@code fault} as its logic fault. */
    /**
     * This result, unless its logic is a checked one that now answers a question it had answered differently
     * (see {@link CheckedLogic#recheck}): then that fault is its verdict, whatever the search found, since a
     * logic that is not a function makes every finding about it unreliable. A non-determinism the search
     * already caught stays as it was. The counts are the search's.
     */
    public SearchResult rechecked() {
        if (!(logic instanceof CheckedLogic checked) || logicFault().filter(LogicFault::isNonDeterminism).isPresent()) {
            return this;
        }
        return checked.recheck().map(f -> withLogicFault(LogicFault.onRecheck(logic, scenario, f, strategy))).orElse(this);
    }

    public SearchResult withLogicFault(LogicFault fault) {
        return new SearchResult(strategy, engine, logic, scenario, states, transitions, depth, runs, healingChecks, nanos,
                witnesses, counterexamples, incomplete, tableBytes, phases, Optional.of(fault), judged);
    }

    /** The first violation found: the shortest for bfs. */
    public Optional<Counterexample> counterexample() {
        return counterexamples.stream().findFirst();
    }

    /** The invariants broken, in the order of their counterexamples. */
    public List<Invariant> violatedInvariants() {
        return counterexamples.stream().map(Counterexample::invariant).toList();
    }

    /** Whether every invariant was judged (a property check judges its own). */
    public boolean judgedAll() {
        return judged.size() == Invariant.values().length;
    }

    public boolean violated() {
        return !counterexamples.isEmpty();
    }

    /**
     * Required witnesses the search never reached though the logic could: non-empty means the check proved
     * nothing about those hazards. Those its declared shape makes unreachable are {@link #notApplicable()}.
     */
    public List<Witness> missingWitnesses() {
        List<Witness> missing = new ArrayList<>();
        Map<Witness, String> notApplicable = notApplicable();
        for (Witness w : scenario.requiredWitnesses()) {
            if (witnesses.getOrDefault(w, 0L) == 0 && !notApplicable.containsKey(w)) {
                missing.add(w);
            }
        }
        return missing;
    }

    /**
     * Required witnesses the search did not reach and the logic's declared shape makes unreachable, each with why
     * ({@link Witness#notApplicableTo}); decided from the shape, not from the search.
     */
    public Map<Witness, String> notApplicable() {
        Map<Witness, String> out = new EnumMap<>(Witness.class);
        Witness.notApplicableTo(logic).forEach((w, why) -> {
            if (scenario.requiredWitnesses().contains(w) && witnesses.getOrDefault(w, 0L) == 0) {
                out.put(w, why);
            }
        });
        return out;
    }

    /** Clean, complete, not vacuous, and the logic kept its contract. */
    public boolean passed() {
        return logicFault.isEmpty() && !violated() && incomplete.isEmpty() && missingWitnesses().isEmpty();
    }

    public double statesPerSecond() {
        return nanos == 0 ? 0 : states * 1e9 / nanos;
    }

    /** The deterministic part of the summary (no timings). */
    public String summary() {
        StringBuilder b = new StringBuilder();
        b.append(String.format("%s %s on %s: %,d %s, %,d transitions, depth %d", strategy, logic.id(), scenario.name(),
                states, strategy.equals("bfs") ? "distinct states" : "states visited in " + runs + " runs", transitions, depth));
        if (strategy.equals("bfs")) {
            b.append(String.format(", fingerprint collision probability %.1e", Fingerprint.collisionProbability(states)));
        }
        b.append(String.format(", %,d healing checks", healingChecks));
        b.append("\n  witnesses:");
        Map<Witness, String> notApplicable = notApplicable();
        for (Witness w : Witness.listed(x -> witnesses.getOrDefault(x, 0L) > 0 || scenario.requiredWitnesses().contains(x))) {
            b.append(' ').append(w).append('=').append(notApplicable.containsKey(w) ? "n/a" : witnesses.getOrDefault(w, 0L))
                    .append(scenario.requiredWitnesses().contains(w) ? "(required)" : "");
        }
        notApplicable.forEach((w, why) -> b.append("\n  ").append(w).append(" not applicable to this logic: ").append(why));
        if (!judgedAll()) {
            b.append("\n  judged: ").append(judged.stream().map(Enum::name).toList())
                    .append(" only (a violation of another invariant is none to this search)");
        }
        return b.toString();
    }

    /** Time and rate, kept apart so reports can leave them out of golden comparisons. */
    public String timing() {
        return String.format("%.2f s, %,.0f states/s, engine %s", nanos / 1e9, statesPerSecond(), engine);
    }

    public String verdictLine() {
        if (logicFault.isPresent()) {
            return logicFault.get().failure().line();
        }
        if (violated()) {
            // a search that goes on past violations may also meet its bound: the invariants it names are not all
            return "VIOLATION " + String.join(", ", violatedInvariants().stream().map(Enum::name).toList())
                    + incomplete.map(why -> " (INCOMPLETE besides: " + why + "; an invariant not named may break past it)").orElse("");
        }
        if (incomplete.isPresent()) {
            return "INCOMPLETE: " + incomplete.get();
        }
        if (!missingWitnesses().isEmpty()) {
            return "VACUOUS: never reached " + missingWitnesses();
        }
        return "OK";
    }
}
