package dev.relaycheck.checker.search;

import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.Judge;
import dev.relaycheck.checker.trace.TraceFormatter;
import dev.relaycheck.checker.walk.PctScheduler;
import dev.relaycheck.checker.walk.RandomScheduler;
import dev.relaycheck.checker.walk.WalkSearch;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WalkSearchTest {

    @Test
    void correctLogicSurvivesRandomAndPctWalksOnSoak() {
        for (var strategy : new dev.relaycheck.checker.walk.Scheduler.Factory[] {RandomScheduler.factory(), PctScheduler.factory(3, 60)}) {
            SearchResult r = new WalkSearch(strategy, 200, 2, true, Progress.NONE)
                    .search(LogicCatalogue.correct(), ReferenceScenarios.soak(), 1, 500, 0);
            assertThat(r.verdictLine()).as(strategy.name()).isEqualTo("OK");
            assertThat(r.runs()).isEqualTo(500);
        }
    }

    @Test
    void sameSeedGivesTheSameReportWhateverTheThreadCount() {
        RelayLogic v = LogicCatalogue.byId("no-dedup-marker").orElseThrow();
        SearchResult a = new WalkSearch(PctScheduler.factory(3, 60), 200, 1, true, Progress.NONE).search(v, ReferenceScenarios.soak(), 7, 2000, 0);
        SearchResult b = new WalkSearch(PctScheduler.factory(3, 60), 200, 2, true, Progress.NONE).search(v, ReferenceScenarios.soak(), 7, 2000, 0);
        assertThat(a.violated()).isTrue();
        assertThat(TraceFormatter.format(b.counterexample().get())).isEqualTo(TraceFormatter.format(a.counterexample().get()));
        assertThat(b.summary()).isEqualTo(a.summary());
    }

    @Test
    void shrunkCounterexampleIsNoLongerThanTheOriginalAndStillBreaksTheSameInvariant() {
        Scenario soak = ReferenceScenarios.soak();
        for (RelayLogic v : LogicCatalogue.variants()) {
            SearchResult raw = new WalkSearch(RandomScheduler.factory(), 200, 2, false, Progress.NONE).firstViolationOnly().search(v, soak, 3, 3000, 0);
            if (!raw.violated()) {
                continue; // soak cannot expose every variant (no producer, no delivery failures)
            }
            SearchResult shrunk = new WalkSearch(RandomScheduler.factory(), 200, 2, true, Progress.NONE).firstViolationOnly().search(v, soak, 3, 3000, 0);
            Counterexample before = raw.counterexample().get();
            Counterexample after = shrunk.counterexample().get();
            assertThat(after.path().size()).as(v.id()).isLessThanOrEqualTo(before.path().size());
            assertThat(after.invariant()).as(v.id()).isEqualTo(before.invariant());
            assertThat(after.scenario().pollers().size()).isLessThanOrEqualTo(soak.pollers().size());
            // the shrunk schedule runs strictly (no fuzzy steps left) and still breaks it
            Judge.Judgement j = Judge.judge(new RelayModel(v, after.scenario()), after.path(), true);
            assertThat(j.violation().map(x -> x.invariant())).contains(before.invariant());
        }
    }

    @Test
    void shrinkingCutsARandomWalkDownToTheEssence() {
        RelayLogic v = LogicCatalogue.byId("ack-ignores-token").orElseThrow();
        SearchResult raw = new WalkSearch(RandomScheduler.factory(), 200, 1, false, Progress.NONE).firstViolationOnly().search(v, ReferenceScenarios.soak(), 11, 5000, 0);
        SearchResult shrunk = new WalkSearch(RandomScheduler.factory(), 200, 1, true, Progress.NONE).firstViolationOnly().search(v, ReferenceScenarios.soak(), 11, 5000, 0);
        assertThat(shrunk.counterexample().get().invariant()).isEqualTo(Invariant.STALE_ACK_REJECTED);
        assertThat(shrunk.counterexample().get().path().size()).isLessThan(raw.counterexample().get().path().size());
        assertThat(shrunk.counterexample().get().scenario().pollers()).hasSize(2);
        assertThat(shrunk.counterexample().get().scenario().events()).hasSize(1);
    }
}
