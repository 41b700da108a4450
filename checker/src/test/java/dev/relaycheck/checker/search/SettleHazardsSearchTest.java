package dev.relaycheck.checker.search;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Witness;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dedup retention, ack scope and unmatched settles under the exhaustive explorer: each new reference scenario passes the correct
 * logic with its required witnesses reached (so it is not vacuous), on pinned counts, and catches its variants
 * with the invariant each names; the first scenarios keep their counts (ExhaustiveSearchTest and the
 * packed agreement tests pin those).
 */
class SettleHazardsSearchTest {

    private static SearchResult search(RelayLogic logic, Scenario s, int threads) {
        return new BreadthFirstSearch(1_000_000, 8, threads, Progress.NONE).search(logic, s);
    }

    /**
     * The explorer's reference counts for the new scenarios, on the packed engine (the readable model gives the same:
     * {@code PackedAgreementTest}); markers written at different ticks make different states.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void theCorrectLogicPassesEachNewScenarioOnItsPinnedCounts(int threads) {
        record Expected(Scenario scenario, long states, long transitions, int depth, List<Witness> witnesses) {
        }
        for (Expected e : List.of(
                new Expected(ReferenceScenarios.markerRetention(), 387, 747, 11,
                        List.of(Witness.DUPLICATE_ABSORBED, Witness.LATE_REDELIVERY)),
                new Expected(ReferenceScenarios.batchAck(), 228, 438, 12, List.of(Witness.ACK_MID_BATCH)),
                new Expected(ReferenceScenarios.unmatchedSettle(), 303, 639, 14,
                        List.of(Witness.STALE_ACK, Witness.UNMATCHED_ACK, Witness.UNMATCHED_RELEASE)))) {
            SearchResult r = search(LogicCatalogue.correct(), e.scenario(), threads);
            String what = e.scenario().name();
            assertThat(r.passed()).as(what + ": " + r.verdictLine()).isTrue();
            assertThat(r.missingWitnesses()).as(what).isEmpty();
            assertThat(r.witnesses().keySet()).as(what).containsAll(e.witnesses());
            assertThat(List.of(r.states(), r.transitions(), (long) r.depth())).as(what)
                    .containsExactly(e.states(), e.transitions(), (long) e.depth());
        }
    }

    @Test
    void eachNewVariantIsCaughtInItsScenarioByTheInvariantItNames() {
        record Case(String variant, Scenario scenario) {
        }
        for (Case c : List.of(
                new Case("purge-at-ack", ReferenceScenarios.markerRetention()),
                new Case("retention-shorter-than-redelivery", ReferenceScenarios.markerRetention()),
                new Case("batch-ack-whole-batch", ReferenceScenarios.batchAck()),
                new Case("ignores-settle-result", ReferenceScenarios.unmatchedSettle()))) {
            RelayLogic variant = LogicCatalogue.byId(c.variant()).orElseThrow();
            SearchResult r = search(variant, c.scenario(), 1);
            assertThat(r.violated()).as(c.variant()).isTrue();
            Invariant broke = r.counterexample().orElseThrow().invariant();
            assertThat(broke).as(c.variant() + ": " + r.verdictLine()).isEqualTo(variant.expectedViolation().orElseThrow());
        }
    }

    @Test
    void retentionVariantsAreAlsoCaughtInTheEvent61Case() {
        // EVENT-61 (the reference case (docs/model.md)) with a retention policy: the lost ack's redelivery outlives the marker
        for (String id : List.of("purge-at-ack", "retention-shorter-than-redelivery")) {
            SearchResult r = search(LogicCatalogue.byId(id).orElseThrow(), ReferenceScenarios.event61LostAck(), 1);
            assertThat(r.counterexample().orElseThrow().invariant()).as(id).isEqualTo(Invariant.EFFECT_AT_MOST_ONCE);
        }
    }
}
