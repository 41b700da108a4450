package dev.relaycheck.checker.search;

import dev.relaycheck.checker.packed.PackedSpace;
import dev.relaycheck.checker.replay.ReplayRecord;
import dev.relaycheck.checker.replay.Replayer;
import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.checker.search.BreadthFirstSearch.Tokens;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.WaitingCursorRelayLogic;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.variants.BrokenVariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lease renewal, clock skew and commit visibility searched exhaustively: the reference counts of the three new scenarios (pinned
 * here; every older scenario's count is pinned where it was and unchanged), each new variant caught naming its
 * invariant with a shortest counterexample, the packed engine agreeing with the readable model on them, and the variants
 * searched as the reference logic where their hazard is off taking exactly the reference logic's steps.
 */
class TimingHazardsSearchTest {

    private static SearchResult bfs(RelayLogic logic, Scenario s, int threads, Engine engine) {
        return new BreadthFirstSearch(1_000_000, 8, threads, engine, Tokens.AUTO, Progress.NONE).search(logic, s);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"lease-renewal, 403, 1022, 13", "clock-skew, 850, 1587, 11", "commit-visibility, 593, 1290, 15"})
    void theCorrectLogicPassesEachNewScenarioWithItsPinnedCounts(String name, long states, long transitions, int depth) {
        Scenario s = ReferenceScenarios.byName(name).orElseThrow();
        SearchResult one = bfs(LogicCatalogue.correct(), s, 1, Engine.AUTO);
        assertThat(one.verdictLine()).isEqualTo("OK");
        assertThat(List.of(one.states(), one.transitions(), (long) one.depth())).containsExactly(states, transitions, (long) depth);
        assertThat(one.missingWitnesses()).isEmpty();
        assertThat(one.engine()).isEqualTo("packed");
        assertThat(bfs(LogicCatalogue.correct(), s, 1, Engine.READABLE).summary()).isEqualTo(one.summary());
        SearchResult two = bfs(LogicCatalogue.correct(), s, 2, Engine.AUTO);
        assertThat(two.summary()).isEqualTo(one.summary());
        SearchResult renumbered = new BreadthFirstSearch(1_000_000, 8, 2, Engine.AUTO, Tokens.CANONICAL, Progress.NONE)
                .search(LogicCatalogue.correct(), s);
        assertThat(renumbered.verdictLine()).isEqualTo("OK");
        assertThat(renumbered.witnesses().keySet()).isEqualTo(one.witnesses().keySet());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({"renewal-by-owner, lease-renewal, SINGLE_LIVE_LEASE, 5", "renewal-ignores-expiry, lease-renewal, SINGLE_LIVE_LEASE, 5",
            "app-clock-expiry, clock-skew, SINGLE_LIVE_LEASE, 4", "cursor-by-sequence, commit-visibility, NO_LOST_EVENT, 5"})
    void eachNewVariantIsCaughtOnItsScenario(String id, String scenario, Invariant expected, int length) {
        RelayLogic v = LogicCatalogue.byId(id).orElseThrow();
        assertThat(v.expectedViolation()).contains(expected);
        SearchResult r = bfs(v, ReferenceScenarios.byName(scenario).orElseThrow(), 2, Engine.AUTO);
        Counterexample cx = r.counterexample().orElseThrow();
        assertThat(cx.invariant()).isEqualTo(expected);
        assertThat(cx.path()).hasSize(length);
        assertThat(Replayer.replay(ReplayRecord.parse(ReplayRecord.of(cx).toText()), v).verdict()).isEqualTo(Verdict.VIOLATION);
    }

    @Test
    void theSkewIsInTheReplayRecord() {
        SearchResult r = bfs(LogicCatalogue.byId("app-clock-expiry").orElseThrow(), ReferenceScenarios.clockSkew(), 1, Engine.AUTO);
        String record = ReplayRecord.of(r.counterexample().orElseThrow()).toText();
        assertThat(record).contains("max-skew 1\n").contains("step Skew(p1,-1) => SKEWED p1 clock db-1\n")
                .contains("step Skew(p2,+1) => SKEWED p2 clock db+1\n");
        // the same record without its skews is another schedule: p2's claim is not even enabled then
        String unskewed = record.replace("step Skew(p1,-1) => SKEWED p1 clock db-1\n", "step Skew(p1,0) => SKEWED p1 clock db+0\n")
                .replace("step Skew(p2,+1) => SKEWED p2 clock db+1\n", "step Skew(p2,0) => SKEWED p2 clock db+0\n");
        assertThat(Replayer.replay(ReplayRecord.parse(unskewed), LogicCatalogue.byId("app-clock-expiry").orElseThrow()).verdict())
                .isNotEqualTo(Verdict.VIOLATION);
    }

    @Test
    void thePackedEngineTakesEveryNewHazard() {
        for (Scenario s : List.of(ReferenceScenarios.leaseRenewal(), ReferenceScenarios.clockSkew(), ReferenceScenarios.commitVisibility())) {
            assertThat(PackedSpace.of(new RelayModel(LogicCatalogue.correct(), s))).as(s.name()).isPresent();
        }
        assertThat(PackedSpace.whyNot(new RelayModel(new WaitingCursorRelayLogic(), ReferenceScenarios.mixed()))).isEmpty();
        assertThat(PackedSpace.of(new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.mixed()))).isPresent();
    }

    /** Where its hazard is off a new variant is the reference logic, state for state: the stand-in is sound. */
    @Test
    void aNewVariantWithoutItsHazardTakesTheReferenceLogicsSteps() {
        List<Scenario> old = List.of(ReferenceScenarios.event61LostAck(), ReferenceScenarios.staleAckAfterExpiry(),
                ReferenceScenarios.crashRestart(), ReferenceScenarios.producerAtomicity(), ReferenceScenarios.aggregateOrder());
        for (RelayLogic v : LogicCatalogue.variants().subList(18, 22)) {
            for (Scenario s : old) {
                assertThat(((BrokenVariant) v).exercisedBy(s)).isFalse();
                SearchResult itself = bfs(v, s, 1, Engine.READABLE);
                SearchResult standIn = bfs(v, s, 1, Engine.AUTO);
                String what = v.id() + " on " + s.name();
                assertThat(itself.engine()).as(what).isEqualTo("readable");
                assertThat(standIn.engine()).as(what).contains(v.id() + " searched as the reference logic");
                assertThat(standIn.logic()).as(what).isSameAs(v);
                assertThat(standIn.summary()).as(what).isEqualTo(itself.summary());
            }
        }
        // with its hazard on, the variant is searched itself
        assertThat(bfs(LogicCatalogue.byId("app-clock-expiry").orElseThrow(), ReferenceScenarios.clockSkew(), 1, Engine.AUTO).engine())
                .doesNotContain("searched as the reference logic");
    }

    @Test
    void aCursorThatWaitsForInFlightSequencesPasses() {
        SearchResult r = bfs(new WaitingCursorRelayLogic(), ReferenceScenarios.commitVisibility(), 2, Engine.AUTO);
        assertThat(r.verdictLine()).isEqualTo("OK");
    }
}
