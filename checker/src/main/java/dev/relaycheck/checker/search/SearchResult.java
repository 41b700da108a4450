package dev.relaycheck.checker.search;

import dev.relaycheck.checker.replay.Counterexample;
import dev.relaycheck.checker.logic.LogicFault;

import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
 * @param counterexample  the first violation, shortest for bfs, shrunk for walks
 * @param incomplete      why the search stopped before covering its space, if it did
 * @param tableBytes      memory of the visited set (bfs)
 * @param phases          where the wall time went (bfs; {@link PhaseTimes#NONE} for walks)
 * @param logicFault      the logic under test threw or answered one question two ways: the search stopped there
 */
public record SearchResult(String strategy, String engine, RelayLogic logic, Scenario scenario, long states, long transitions,
                           int depth, long runs, long healingChecks, long nanos, Map<Witness, Long> witnesses,
                           Optional<Counterexample> counterexample, Optional<String> incomplete, long tableBytes,
                           PhaseTimes phases, Optional<LogicFault> logicFault) {

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
    }

    /** The same result, saying another engine ran it. */
    public SearchResult withEngine(String name) {
        return new SearchResult(strategy, name, logic, scenario, states, transitions, depth, runs, healingChecks, nanos,
                witnesses, counterexample, incomplete, tableBytes, phases, logicFault);
    }

    /** The same result, as the result of searching {@code other} (which took exactly the same steps). */
    public SearchResult withLogic(RelayLogic other) {
        return new SearchResult(strategy, engine, other, scenario, states, transitions, depth, runs, healingChecks, nanos,
                witnesses, counterexample, incomplete, tableBytes, phases, logicFault);
    }

    /** The same result with {@code fault} as its logic fault. */
    public SearchResult withLogicFault(LogicFault fault) {
        return new SearchResult(strategy, engine, logic, scenario, states, transitions, depth, runs, healingChecks, nanos,
                witnesses, counterexample, incomplete, tableBytes, phases, Optional.of(fault));
    }

    public boolean violated() {
        return counterexample.isPresent();
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
            return "VIOLATION " + counterexample.get().invariant();
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
