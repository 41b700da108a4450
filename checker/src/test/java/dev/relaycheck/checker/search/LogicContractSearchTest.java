package dev.relaycheck.checker.search;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.replay.ReplayRecord;
import dev.relaycheck.checker.replay.Replayer;
import dev.relaycheck.checker.replay.Shrinker;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.walk.RandomScheduler;
import dev.relaycheck.checker.walk.WalkSearch;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.LogicError;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The searches with a logic that breaks its contract, in process: a logic error stops the search and is
 * reported the same way on any number of threads; the contract check changes no count of a logic that keeps it.
 */
class LogicContractSearchTest {

    /** The reference logic under another class, so the contract check runs around it. */
    private static final class Unshipped extends CorrectRelayLogic {
        @Override
        public String id() {
            return "unshipped-correct";
        }
    }

    /** Throws from the ack of any row claimed a second time: a deterministic fault deep in the space. */
    private static final class ThrowsOnReclaimedAck extends CorrectRelayLogic {
        @Override
        public String id() {
            return "throws-on-reclaimed-ack";
        }

        @Override
        public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
            if (row.currentToken() >= 2) {
                throw new IllegalStateException("lease table out of sync");
            }
            return super.acceptsAck(row, token, poller, now);
        }
    }

    /**
     * Accepts a stale ack (one from a poller that lost the lease), a STALE_ACK_REJECTED violation, and from
     * then on rejects the scenario's first valid ack, p1's with t1 at tick 0, which it had accepted: its
     * answer changed, but the search stops on the violation (breadth-first, at a deeper level than that
     * first ack) without asking that question again. Only that one answer changes, so whoever notices it,
     * the search or the recheck after it, names the same question on any number of threads.
     */
    private static final class ForgetsFirstAckAfterAStaleOne extends CorrectRelayLogic {
        private volatile boolean acceptedStale;

        @Override
        public String id() {
            return "forgets-first-ack";
        }

        @Override
        public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
            boolean right = super.acceptsAck(row, token, poller, now);
            if (row.hasLease() && !row.lease().owner().equals(poller)) {
                acceptedStale = true;
                return true;
            }
            boolean firstAck = token == 1 && poller.equals("p1") && now == 0;
            return acceptedStale && firstAck ? !right : right;
        }
    }

    @Test
    void anAnswerChangedAfterTheSearchsLastAskingIsFoundByTheRecheckAndOutranksTheViolation() {
        Scenario s = ReferenceScenarios.staleAckAfterExpiry();
        String line = "NON-DETERMINISM in logic forgets-first-ack: acceptsAck(E1:PENDING[p1/t1/exp2], t1, p1, now=0) "
                + "answered true, then false";
        SearchResult one = new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE).search(new ForgetsFirstAckAfterAStaleOne(), s);
        assertThat(one.counterexample()).map(Counterexample::invariant).contains(Invariant.STALE_ACK_REJECTED);
        LogicFault f = one.logicFault().orElseThrow();
        assertThat(f.doing()).isEqualTo(LogicFault.Doing.RECHECKING);
        assertThat(f.where()).isEqualTo("re-asking every question the search had asked, after it ended");
        assertThat(one.verdictLine()).isEqualTo(line);
        assertThat(Verdict.of(one)).isEqualTo(Verdict.NON_DETERMINISM);
        SearchResult two = new BreadthFirstSearch(1_000_000, 8, 2, Progress.NONE).search(new ForgetsFirstAckAfterAStaleOne(), s);
        assertThat(two.verdictLine()).isEqualTo(line);
        assertThat(two.states()).isEqualTo(one.states());
        // a replay asks none of the search's questions: it says so rather than claim the fault is fixed or there
        Replayer.Result replay = Replayer.replay(ReplayRecord.parse(ReplayRecord.of(f).toText()),
                new ForgetsFirstAckAfterAStaleOne());
        assertThat(replay.verdict()).isEqualTo(Verdict.CLEAN);
        assertThat(replay.report()).startsWith("NOT REPRODUCED: this NON-DETERMINISM in acceptsAck was found re-asking")
                .contains("run the search again");
    }

    @Test
    void theRecheckLeavesALogicThatKeepsItsContractAsItWasOnWalksToo() {
        for (Scenario s : List.of(ReferenceScenarios.staleAckAfterExpiry(), ReferenceScenarios.doubleClaim())) {
            WalkSearch walks = new WalkSearch(RandomScheduler.factory(), 60, 2, true, Progress.NONE);
            SearchResult shipped = walks.search(LogicCatalogue.correct(), s, 5, 300, 0);
            SearchResult checked = walks.search(new Unshipped(), s, 5, 300, 0);
            assertThat(checked.logicFault()).as(s.name()).isEmpty();
            assertThat(checked.verdictLine()).as(s.name()).isEqualTo(shipped.verdictLine());
            assertThat(checked.states()).as(s.name()).isEqualTo(shipped.states());
            assertThat(checked.runs()).as(s.name()).isEqualTo(shipped.runs());
            assertThat(checked.witnesses()).as(s.name()).isEqualTo(shipped.witnesses());
        }
    }

    @Test
    void theContractCheckChangesNoCountOfTheReadableModel() {
        for (Scenario s : ExhaustiveSearchTest.smallScenarios()) {
            BreadthFirstSearch bfs = new BreadthFirstSearch(1_000_000, 8, 2, BreadthFirstSearch.Engine.READABLE, Progress.NONE);
            SearchResult shipped = bfs.search(LogicCatalogue.correct(), s);
            SearchResult checked = bfs.search(new Unshipped(), s);
            assertThat(checked.logicFault()).as(s.name()).isEmpty();
            assertThat(checked.verdictLine()).as(s.name()).isEqualTo("OK");
            assertThat(checked.states()).as(s.name()).isEqualTo(shipped.states());
            assertThat(checked.transitions()).as(s.name()).isEqualTo(shipped.transitions());
            assertThat(checked.witnesses()).as(s.name()).isEqualTo(shipped.witnesses());
            assertThat(checked.healingChecks()).as(s.name()).isEqualTo(shipped.healingChecks());
        }
    }

    @Test
    void aLogicErrorEndsTheSearchAsItsOwnVerdictTheSameOnAnyNumberOfThreads() {
        Scenario s = ReferenceScenarios.mixed();
        SearchResult one = new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE).search(new ThrowsOnReclaimedAck(), s);
        assertThat(one.passed()).isFalse();
        assertThat(one.counterexample()).isEmpty();
        LogicFault f = one.logicFault().orElseThrow();
        assertThat(f.failure()).isInstanceOf(LogicError.class);
        assertThat(f.failure().method()).isEqualTo("acceptsAck");
        assertThat(one.verdictLine()).startsWith("LOGIC-ERROR in logic throws-on-reclaimed-ack: acceptsAck(")
                .contains("threw java.lang.IllegalStateException: lease table out of sync");
        for (int threads = 2; threads <= 3; threads++) {
            SearchResult many = new BreadthFirstSearch(1_000_000, 8, threads, Progress.NONE).search(new ThrowsOnReclaimedAck(), s);
            assertThat(many.logicFault().orElseThrow().format()).as(threads + " threads").isEqualTo(f.format());
            assertThat(many.states()).isEqualTo(one.states());
            assertThat(many.transitions()).isEqualTo(one.transitions());
        }
        // its record replays to the same fault
        Replayer.Result replay = Replayer.replay(ReplayRecord.parse(ReplayRecord.of(f).toText()), new ThrowsOnReclaimedAck());
        assertThat(replay.verdict()).isEqualTo(Verdict.LOGIC_ERROR);
        assertThat(replay.report()).contains("REPRODUCED LOGIC-ERROR").contains("the logic still throws");
        // and a logic that no longer throws there does not reproduce it
        Replayer.Result fixed = Replayer.replay(ReplayRecord.parse(ReplayRecord.of(f).toText()), new CorrectRelayLogic() {
            @Override
            public String id() {
                return "throws-on-reclaimed-ack";
            }
        });
        assertThat(fixed.verdict()).as(fixed.report()).isEqualTo(Verdict.CLEAN);
        assertThat(fixed.report()).startsWith("NOT REPRODUCED");
    }

    @Test
    void aScheduleTheShrinkerTriesOnWhichTheLogicFailsIsReportedAsThatFaultNotSwallowed() {
        Scenario s = ReferenceScenarios.staleAckAfterExpiry();
        List<Step> reclaimedThenAcked = Stream.of("Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick", "Claim(p2)",
                "Deliver(p2,E1,t2)", "Ack(p2,E1,t2)").map(Step::parse).toList();
        assertThatThrownBy(() -> Shrinker.reproduce(CheckedLogic.of(new ThrowsOnReclaimedAck()), s, reclaimedThenAcked,
                Invariant.STALE_ACK_REJECTED))
                .isInstanceOfSatisfying(Shrinker.LogicFailed.class, e -> {
                    LogicFault f = e.fault();
                    assertThat(f.where()).isEqualTo("at step 7, Ack(p2,E1,t2), after 6 steps that ran");
                    assertThat(f.failure().question()).isEqualTo("acceptsAck(E1:PENDING[p2/t2/exp4], t2, p2, now=2)");
                    assertThat(f.path()).isEqualTo(reclaimedThenAcked.subList(0, 6));
                });
    }

    @Test
    void walksReportTheLowestNumberedWalkWhoseLogicFailedWhateverTheThreads() {
        RelayLogic logic = new ThrowsOnReclaimedAck();
        Scenario s = ReferenceScenarios.staleAckAfterExpiry();
        SearchResult one = new WalkSearch(RandomScheduler.factory(), 60, 1, true, Progress.NONE).search(logic, s, 5, 300, 0);
        SearchResult two = new WalkSearch(RandomScheduler.factory(), 60, 2, true, Progress.NONE).search(logic, s, 5, 300, 0);
        LogicFault f = one.logicFault().orElseThrow();
        assertThat(f.foundBy()).startsWith("random walk #");
        assertThat(f.seed()).isPresent();
        assertThat(two.logicFault().orElseThrow().format()).isEqualTo(f.format());
        assertThat(one.verdictLine()).startsWith("LOGIC-ERROR").doesNotContain("VACUOUS");
        assertThat(one.runs()).isEqualTo(two.runs());
    }
}
