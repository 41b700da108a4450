package dev.relaycheck.checker.harness;

import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Turns a race seen under stress into a deterministic schedule: for a jcstress harness that saw a logic break an
 * invariant, the exhaustive model search of the reference scenario with the same hazard, for the same logic,
 * finds the shortest interleaving that breaks the same invariant, and its replay line reproduces it every time.
 * Only a logic can be replayed (the model runs logics, not stores).
 */
public final class ModelReplays {
    /** The reference scenario that holds each harness's hazard. */
    private static final Map<String, Supplier<Scenario>> SCENARIO_OF = new TreeMap<>(Map.of(
            "Lease_01_DoubleClaim", ReferenceScenarios::doubleClaim,
            "Lease_02_StaleAckAfterExpiry", ReferenceScenarios::staleAckAfterExpiry,
            "Lease_03_AckRacesExpiry", ReferenceScenarios::staleAckAfterExpiry,
            "Lease_04_StaleRelease", ReferenceScenarios::mixed,
            "Relay_01_DuplicateDelivery", ReferenceScenarios::event61LostAck,
            "Relay_02_LostAckRedelivery", ReferenceScenarios::event61LostAck,
            "Relay_03_CrashRestart", ReferenceScenarios::crashRestart,
            "Order_01_AggregateOrder", ReferenceScenarios::aggregateOrder,
            "Produce_01_Atomicity", ReferenceScenarios::producerAtomicity));

    static {
        SCENARIO_OF.put("Lease_06_RenewalAfterTakeover", ReferenceScenarios::leaseRenewal);
    }

    private ModelReplays() {
    }

    /** The invariant a jcstress detail names, e.g. {@code ... (STALE_ACK_REJECTED)}. */
    public static Optional<Invariant> invariantIn(String detail) {
        for (Invariant i : Invariant.values()) {
            if (detail.contains("(" + i.name())) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /**
     * The model's shortest counterexample for {@code logic} in the harness's scenario, if it breaks
     * {@code invariant} there too; empty when the model does not reproduce it (a store-level race, or a harness
     * without a matching scenario).
     */
    public static Optional<Counterexample> reproduce(String harness, RelayLogic logic, Invariant invariant) {
        Supplier<Scenario> scenario = SCENARIO_OF.get(harness);
        if (scenario == null) {
            return Optional.empty();
        }
        BreadthFirstSearch bfs = new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, 8, 1, Progress.NONE);
        SearchResult r = bfs.search(logic, scenario.get());
        return r.counterexamples().stream().filter(cx -> cx.invariant() == invariant).findFirst();
    }
}
