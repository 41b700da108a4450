package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The healing memory is exact: at every state of seeded walks through every scenario under every logic, a model
 * that remembers its earlier runs (many, by then) gives the healing verdict a fresh model gives; and searches with it
 * report what searches without it report, counterexamples included.
 */
class HealingMemoTest {
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("dev.relaycheck.checker.packed.PackedAgreementTest#logicsAndScenarios")
    void aRememberedVerdictIsTheOneARunGives(RelayLogic logic, Scenario scenario) {
        PackedModel remembering = PackedAgreementTest.packedModel(logic, scenario);
        int period = HealingMemo.period(remembering.mostFairSteps());
        if (period == 0) {
            return; // too long a period to memoise: nothing to hold
        }
        HealingMemo memo = new HealingMemo(period, remembering.healingBound());
        remembering.memoisingHealing(memo);
        PackedModel fresh = PackedAgreementTest.packedModel(logic, scenario);
        int[] checked = {0};
        SeededWalks.forEachStep(remembering, scenario.name().hashCode() * 13L + logic.id().hashCode(), (s, fromS, b, u, where) -> {
            assertThat(remembering.healingFails(u.state())).as("healing, " + logic.id() + "/" + scenario.name() + " " + where)
                    .isEqualTo(fresh.healingFails(u.state()));
            checked[0]++;
        });
        assertThat(memo.runs() + memo.hits()).isEqualTo(checked[0]);
    }

    @Test
    void searchesReportTheSameWithTheMemoryAsWithout() {
        for (RelayLogic logic : LogicCatalogue.all()) {
            for (Scenario s : java.util.List.of(ReferenceScenarios.mixed(), ReferenceScenarios.crashRestart(),
                    ReferenceScenarios.leaseRenewal(), ReferenceScenarios.outboxCleanup())) {
                BreadthFirstSearch bfs = new BreadthFirstSearch(1_000_000, 1, 2, Engine.AUTO, Progress.NONE); // heal every state
                SearchResult without = bfs.search(logic, s);
                SearchResult with = bfs.rememberingHealing().search(logic, s);
                String what = logic.id() + " on " + s.name();
                PackedAgreementTest.assertSameResult(without, with);
                assertThat(with.engine()).as(what).isEqualTo(without.engine());
            }
        }
        SearchResult soakish = new BreadthFirstSearch(200_000, 1, 2, Engine.AUTO, Progress.NONE).rememberingHealing()
                .search(LogicCatalogue.correct(), ReferenceScenarios.soak());
        assertThat(soakish.phases().healingRemembered()).as("healing runs the memory decided").isPositive();
    }
}
