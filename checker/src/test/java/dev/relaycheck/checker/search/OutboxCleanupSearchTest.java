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
import dev.relaycheck.model.Step;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox cleanup searched exhaustively: the correct logic's pinned counts on outbox-cleanup (one and two threads,
 * exact and renumbered tokens agree), cleanup-deletes-in-flight caught with its shortest counterexample naming the
 * lost event and the Cleanup step, replayable, on the packed engine as on the readable model.
 */
class OutboxCleanupSearchTest {

    private static SearchResult bfs(RelayLogic logic, int threads, Tokens tokens) {
        return bfs(logic, threads, tokens, Engine.AUTO);
    }

    private static SearchResult bfs(RelayLogic logic, int threads, Tokens tokens, Engine engine) {
        return new BreadthFirstSearch(1_000_000, 8, threads, engine, tokens, Progress.NONE)
                .search(logic, ReferenceScenarios.outboxCleanup());
    }

    @Test
    void theCorrectLogicPassesWithItsPinnedCountsOnThePackedEngine() {
        SearchResult one = bfs(LogicCatalogue.correct(), 1, Tokens.AUTO);
        assertThat(one.verdictLine()).isEqualTo("OK");
        assertThat(List.of(one.states(), one.transitions(), (long) one.depth())).containsExactly(532L, 899L, 14L);
        assertThat(one.missingWitnesses()).isEmpty();
        assertThat(one.engine()).isEqualTo("packed");
        assertThat(bfs(LogicCatalogue.correct(), 1, Tokens.AUTO, Engine.READABLE).summary()).isEqualTo(one.summary());
        assertThat(bfs(LogicCatalogue.correct(), 2, Tokens.AUTO).summary()).isEqualTo(one.summary());
        SearchResult renumbered = bfs(LogicCatalogue.correct(), 2, Tokens.CANONICAL);
        assertThat(renumbered.verdictLine()).isEqualTo("OK");
        assertThat(renumbered.witnesses().keySet()).isEqualTo(one.witnesses().keySet());
    }

    @Test
    void aPurgeOfLeasedRowsIsCaughtAsALostEventAtTheCrashAfterTheCleanup() {
        RelayLogic v = LogicCatalogue.byId("cleanup-deletes-in-flight").orElseThrow();
        SearchResult r = bfs(v, 2, Tokens.AUTO);
        Counterexample cx = r.counterexample().orElseThrow();
        assertThat(cx.invariant()).isEqualTo(Invariant.NO_LOST_EVENT);
        assertThat(cx.path()).containsExactly(new Step.Claim("p1"), new Step.Cleanup(), new Step.Crash("p1"));
        assertThat(cx.violation().detail()).startsWith("E1 was deleted by the outbox cleanup (Cleanup) while PENDING, leased to p1 until t=2");
        String record = ReplayRecord.of(cx).toText();
        assertThat(record).contains("cleanup true\n").contains("step Cleanup => CLEANED_UP at t=0: deleted E1:PENDING[p1/t1/exp2]\n");
        assertThat(Replayer.replay(ReplayRecord.parse(record), v).verdict()).isEqualTo(Verdict.VIOLATION);
    }

    @Test
    void thePackedEngineTakesTheCleanupAndTheVariantIsTheReferenceWhereItIsOff() {
        RelayLogic v = LogicCatalogue.byId("cleanup-deletes-in-flight").orElseThrow();
        assertThat(PackedSpace.whyNot(new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.outboxCleanup())))
                .isEmpty();
        SearchResult elsewhere = new BreadthFirstSearch(1_000_000, 8, 1, Engine.AUTO, Tokens.AUTO, Progress.NONE)
                .search(v, ReferenceScenarios.crashRestart());
        SearchResult reference = new BreadthFirstSearch(1_000_000, 8, 1, Engine.AUTO, Tokens.AUTO, Progress.NONE)
                .search(LogicCatalogue.correct(), ReferenceScenarios.crashRestart());
        assertThat(elsewhere.verdictLine()).isEqualTo("OK");
        assertThat(List.of(elsewhere.states(), elsewhere.transitions())).isEqualTo(List.of(reference.states(), reference.transitions()));
    }
}
