package dev.relaycheck.checker.search;

import dev.relaycheck.checker.replay.Counterexample;
import dev.relaycheck.checker.Judge;
import dev.relaycheck.checker.trace.TraceFormatter;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Witness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class ExhaustiveSearchTest {

    /** Every reference scenario except the two big ones, which the CLI and the bench cover. */
    static List<Scenario> smallScenarios() {
        return ReferenceScenarios.defaults().stream().filter(s -> !s.name().equals("mixed-big")).toList();
    }

    static Stream<RelayLogic> variants() {
        return LogicCatalogue.variants().stream();
    }

    @Test
    void correctLogicPassesEveryReferenceScenarioExhaustivelyAndReachesItsWitnesses() {
        for (Scenario s : ReferenceScenarios.defaults()) {
            SearchResult r = new BreadthFirstSearch(5_000_000, 8, 2, Progress.NONE).search(LogicCatalogue.correct(), s);
            assertThat(r.verdictLine()).as(s.name()).isEqualTo("OK");
            assertThat(r.incomplete()).isEmpty();
        }
    }

    @Test
    void mixedHasTheStateCountOfTheReadableModel() {
        // the number the CLI reports; a change here means the model's semantics changed
        SearchResult r = new BreadthFirstSearch(1_000_000, 8, Progress.NONE).search(LogicCatalogue.correct(), ReferenceScenarios.mixed());
        assertThat(r.states()).isEqualTo(10_011);
        assertThat(r.transitions()).isEqualTo(27_564);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyVariantIsCaughtNamingItsExpectedInvariant(RelayLogic variant) {
        Invariant expected = variant.expectedViolation().orElseThrow();
        boolean caught = false;
        for (Scenario s : smallScenarios()) {
            SearchResult r = new BreadthFirstSearch(1_000_000, 8, Progress.NONE).search(variant, s);
            if (r.violated() && r.counterexample().get().invariant() == expected) {
                caught = true;
                Counterexample cx = r.counterexample().get();
                // the trace ends on the step that broke it, and re-judging the path reproduces it
                Judge.Judgement again = Judge.judge(new dev.relaycheck.model.RelayModel(variant, s), cx.path(), cx.isLiveness());
                assertThat(again.violation()).contains(cx.violation());
            }
        }
        assertThat(caught).as("%s caught with %s on some reference scenario", variant.id(), expected).isTrue();
    }

    @Test
    void bfsReportsAShortestCounterexample() {
        // ack-before-deliver breaks NO_LOST_EVENT after Claim then Ack: nothing shorter exists
        SearchResult r = new BreadthFirstSearch(100_000, 8, Progress.NONE)
                .search(LogicCatalogue.byId("ack-before-deliver").orElseThrow(), ReferenceScenarios.event61LostAck());
        assertThat(r.counterexample().orElseThrow().path()).extracting(Object::toString)
                .containsExactly("Claim(p1)", "Ack(p1,EVENT-61,t1)");
    }

    @Test
    void livenessBugIsReportedWithItsHealingPhase() {
        SearchResult r = new BreadthFirstSearch(100_000, 8, Progress.NONE)
                .search(LogicCatalogue.byId("lease-never-expires").orElseThrow(), ReferenceScenarios.crashRestart());
        Counterexample cx = r.counterexample().orElseThrow();
        assertThat(cx.invariant()).isEqualTo(Invariant.EVENTUAL_DELIVERY);
        assertThat(cx.path()).extracting(Object::toString).contains("Crash(p1)");
        assertThat(TraceFormatter.format(cx)).contains("healing").contains("/expnever");
    }

    @Test
    void aScenarioThatNeverReachesItsWitnessIsVacuous() {
        Scenario noFaults = Scenario.builder("no-faults").pollers("p1").stock("SKU-1", 5).event("E1", "SKU-1", 1)
                .requires(Witness.STALE_ACK).build();
        SearchResult r = new BreadthFirstSearch(10_000, 8, Progress.NONE).search(LogicCatalogue.correct(), noFaults);
        assertThat(r.violated()).isFalse();
        assertThat(r.passed()).isFalse();
        assertThat(r.verdictLine()).startsWith("VACUOUS").contains("STALE_ACK");
    }

    @Test
    void maxStatesBoundStopsTheSearchWithAClearMessage() {
        SearchResult r = new BreadthFirstSearch(500, 8, Progress.NONE).search(LogicCatalogue.correct(), ReferenceScenarios.mixed());
        assertThat(r.incomplete()).hasValueSatisfying(m -> assertThat(m).contains("--max-states bound of 500"));
        assertThat(r.states()).isEqualTo(500);
        assertThat(r.passed()).isFalse();
    }

    @Test
    void oneThreadAndTwoThreadsGiveTheSameResult() {
        for (RelayLogic l : List.of(LogicCatalogue.correct(), LogicCatalogue.byId("dedup-by-payload").orElseThrow())) {
            SearchResult one = new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE).search(l, ReferenceScenarios.mixed());
            SearchResult two = new BreadthFirstSearch(1_000_000, 8, 2, Progress.NONE).search(l, ReferenceScenarios.mixed());
            assertThat(two.summary()).isEqualTo(one.summary());
            assertThat(two.counterexample().map(TraceFormatter::format)).isEqualTo(one.counterexample().map(TraceFormatter::format));
        }
    }

    @Test
    void itsPhaseTimesAreEachPartOfItsThreadTime() {
        for (int threads : new int[] {1, 2, 3}) {
            SearchResult r = new BreadthFirstSearch(1_000_000, 8, threads, Progress.NONE).search(LogicCatalogue.correct(), ReferenceScenarios.mixed());
            PhaseTimes p = r.phases();
            assertThat(List.of(p.expandNanos(), p.visitedNanos(), p.numberNanos())).allMatch(n -> n > 0);
            assertThat(p.otherNanos(r.nanos(), threads)).as("each thread's tasks run one after another, inside the search")
                    .isPositive();
        }
    }

    /**
     * A search that stops counts only the states it stored: its depth is the deepest level holding one,
     * although room was made for the whole chunk's new states. (Found when the workers began numbering their
     * own slices: ack-before-deliver reported depth 2 for a one-step counterexample.)
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void aStoppedSearchCountsOnlyTheStatesItStored(int threads) {
        record Expected(String logic, Scenario scenario, int maxStates, long states, long transitions, int depth) {
        }
        for (Expected e : List.of(
                new Expected("ack-before-deliver", ReferenceScenarios.event61LostAck(), 1_000_000, 5, 4, 1),
                new Expected("dedup-by-payload", ReferenceScenarios.aggregateOrder(), 1_000_000, 169, 255, 5),
                new Expected("correct", ReferenceScenarios.mixed(), 777, 777, 1_350, 8),
                new Expected("correct", ReferenceScenarios.soak(), 100_000, 100_000, 283_684, 14))) {
            RelayLogic logic = LogicCatalogue.byId(e.logic()).orElseThrow();
            SearchResult r = new BreadthFirstSearch(e.maxStates(), 8, threads, Progress.NONE).search(logic, e.scenario());
            assertThat(List.of(r.states(), r.transitions(), (long) r.depth()))
                    .as("%s on %s", e.logic(), e.scenario().name()).containsExactly(e.states(), e.transitions(), (long) e.depth());
        }
    }
}
