package dev.relaycheck.checker.search;

import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.checker.search.BreadthFirstSearch.Tokens;
import dev.relaycheck.checker.space.Judging;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.TraceFormatter;
import dev.relaycheck.checker.walk.Scheduler;
import dev.relaycheck.checker.walk.WalkSearch;
import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.ScheduleRunner;
import dev.relaycheck.model.Step;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * EVENTUAL_DELIVERY found by healing is reported however the search ends, and walks heal along the way. The
 * subject is a logic whose lease expires the moment it is granted: two pollers re-claim each other's row
 * forever, every claim a new token, so its exact space never closes.
 */
class LivenessSearchTest {

    /** Extends the correct logic, as a user would; only the lease expiry differs. */
    static final class LeaseExpiresAtOnce extends CorrectRelayLogic {
        @Override
        public String id() {
            return "lease-expires-at-once";
        }

        @Override
        public int leaseExpiry(int now, int leaseTicks) {
            return now;
        }
    }

    private static final RelayLogic SUBJECT = new LeaseExpiresAtOnce();

    @Test
    void theSpaceClosesWithTokensRenumberedAndTheHealingFailureIsTheSameOnAnyNumberOfThreads() {
        for (Scenario s : List.of(ReferenceScenarios.event61LostAck(), ReferenceScenarios.doubleClaim())) {
            SearchResult one = new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, 8, 1, Progress.NONE).search(SUBJECT, s);
            assertThat(one.counterexample()).as(s.name()).hasValueSatisfying(cx -> {
                assertThat(cx.invariant()).isEqualTo(Invariant.EVENTUAL_DELIVERY);
                assertThat(cx.foundBy()).isEqualTo("bfs");
            });
            assertThat(one.incomplete()).isEmpty();
            assertThat(one.engine()).startsWith("packed, tokens renumbered canonically (exact tokens outgrew the packed encoding");
            for (int threads : new int[] {2, 3}) {
                SearchResult more = new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, 8, threads, Progress.NONE).search(SUBJECT, s);
                assertThat(more.summary()).isEqualTo(one.summary());
                assertThat(TraceFormatter.format(more.counterexample().orElseThrow()))
                        .isEqualTo(TraceFormatter.format(one.counterexample().orElseThrow()));
            }
        }
    }

    @Test
    void aHealingFailureFoundBeforeTheBoundIsReportedNotIncomplete() {
        String bound = "stopped at the --max-states bound of 40 distinct states";
        for (Tokens tokens : Tokens.values()) {
            for (int threads : new int[] {1, 2}) {
                SearchResult r = new BreadthFirstSearch(40, 1, threads, Engine.AUTO, tokens, Progress.NONE)
                        .judging(Judging.FIRST).search(SUBJECT, ReferenceScenarios.event61LostAck());
                assertThat(r.incomplete()).as("%s, %d threads", tokens, threads).isEmpty();
                assertThat(r.counterexample().orElseThrow().invariant()).isEqualTo(Invariant.EVENTUAL_DELIVERY);
                assertThat(r.counterexample().orElseThrow().foundBy()).isEqualTo("bfs (healing failed before the search " + bound + ")");
                assertThat(r.verdictLine()).isEqualTo("VIOLATION EVENTUAL_DELIVERY");
                // a search that goes on past violations says also where it stopped: another invariant may break past it
                SearchResult every = new BreadthFirstSearch(40, 1, threads, Engine.AUTO, tokens, Progress.NONE)
                        .search(SUBJECT, ReferenceScenarios.event61LostAck());
                assertThat(every.counterexamples()).hasSize(1);
                assertThat(every.counterexample().orElseThrow().foundBy()).isEqualTo(r.counterexample().orElseThrow().foundBy());
                assertThat(every.verdictLine()).startsWith("VIOLATION EVENTUAL_DELIVERY (INCOMPLETE besides: " + bound);
                assertThat(dev.relaycheck.checker.search.Verdict.of(every)).isEqualTo(dev.relaycheck.checker.search.Verdict.VIOLATION);
            }
        }
        // a safety violation is still a shortest one: the healing failure waits for the search to end
        SearchResult safety = new BreadthFirstSearch(BreadthFirstSearch.HEAP_BOUND, 1, Progress.NONE)
                .search(dev.relaycheck.model.catalogue.LogicCatalogue.byId("ack-ignores-token").orElseThrow(),
                        ReferenceScenarios.staleAckAfterExpiry());
        assertThat(safety.counterexample().orElseThrow().invariant()).isEqualTo(Invariant.STALE_ACK_REJECTED);
    }

    @Test
    void exactTokensOnTheReadableModelGiveTheSameHealingFailureAsRenumberedOnes() {
        Scenario s = ReferenceScenarios.event61LostAck();
        SearchResult exact = new BreadthFirstSearch(3_000, 8, 1, Engine.READABLE, Tokens.EXACT, Progress.NONE).search(SUBJECT, s);
        SearchResult canonical = new BreadthFirstSearch(3_000, 8, 1, Engine.READABLE, Tokens.CANONICAL, Progress.NONE).search(SUBJECT, s);
        assertThat(canonical.counterexample().orElseThrow().foundBy()).isEqualTo("bfs"); // closed: no bound met
        assertThat(exact.counterexample().orElseThrow().foundBy()).startsWith("bfs (healing failed before the search stopped at");
        assertThat(exact.counterexample().orElseThrow().path()).isEqualTo(canonical.counterexample().orElseThrow().path());
    }

    /**
     * A walk that passes through a state that cannot heal (p2 claimed and delivered: round-robin healing then
     * lets the pollers steal the row from each other forever) and ends in one that is complete (p2 acked before
     * p1 ever claimed). Healing only from the last state passes it; healing along the walk reports it.
     */
    @Test
    void aWalkWhoseLastStateHealsButAnEarlierOneDoesNotIsReported() {
        Scenario s = ReferenceScenarios.event61LostAck();
        RelayModel model = new RelayModel(SUBJECT, s);
        List<Step> script = List.of("Claim(p2)", "Deliver(p2,EVENT-61,t1)", "Ack(p2,EVENT-61,t1)").stream().map(Step::parse).toList();
        Scheduler.Factory scripted = new Scheduler.Factory() {
            @Override
            public String name() {
                return "scripted";
            }

            @Override
            public Scheduler forWalk(long seed) {
                return (state, enabled, index) -> index < script.size() ? script.get(index) : enabled.get(0);
            }
        };
        RelayState afterTwo = ScheduleRunner.run(model, script.subList(0, 2)).finalState();
        assertThat(Healing.check(model, afterTwo)).as("the state after the delivery cannot heal").isPresent();

        SearchResult lastOnly = new WalkSearch(scripted, 50, 1_000, 1, false, Progress.NONE).search(SUBJECT, s, 1, 1, 0);
        assertThat(lastOnly.counterexample()).as("the walk ends complete: healing from its end alone finds nothing").isEmpty();
        // it ends at or after the ack (a lease that expires at once needs no tick, so the clock may not move)
        assertThat(lastOnly.depth()).isGreaterThanOrEqualTo(script.size());

        for (int healEvery : new int[] {1, 2}) {
            SearchResult along = new WalkSearch(scripted, 50, healEvery, 1, false, Progress.NONE).search(SUBJECT, s, 1, 1, 0);
            Counterexample cx = along.counterexample().orElseThrow();
            assertThat(cx.invariant()).isEqualTo(Invariant.EVENTUAL_DELIVERY);
            assertThat(cx.path()).as("reported from the healing point, not the walk's end").isEqualTo(script.subList(0, 2));
            assertThat(cx.foundBy()).isEqualTo("scripted walk #0");
        }
    }
}
