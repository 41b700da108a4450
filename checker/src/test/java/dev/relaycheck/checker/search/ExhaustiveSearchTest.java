package dev.relaycheck.checker.search;

import dev.relaycheck.checker.space.Judging;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.Judge;
import dev.relaycheck.checker.trace.TraceFormatter;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Witness;
import dev.relaycheck.model.catalogue.LogicCatalogue;
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
            for (Counterexample cx : r.counterexamples()) {
                caught |= cx.invariant() == expected;
                // the trace ends on the step that broke it, and re-judging the path reproduces it
                Judge.Judgement again = Judge.judge(new dev.relaycheck.model.RelayModel(variant, s), cx.path(),
                        cx.trace().size() > cx.path().size());
                assertThat(again.violations()).contains(cx.violation());
            }
        }
        assertThat(caught).as("%s caught with %s on some reference scenario", variant.id(), expected).isTrue();
    }

    private static final RelayLogic TWO_MISTAKES = new dev.relaycheck.model.testsupport.TwoMistakesLogic();

    @Test
    void aSearchGoesOnPastAViolationAndReportsEveryInvariantWithItsShortestTrace() {
        Scenario s = ReferenceScenarios.mixed();
        SearchResult first = new BreadthFirstSearch(1_000_000, 8, Progress.NONE).judging(Judging.FIRST).search(TWO_MISTAKES, s);
        for (int threads : new int[] {1, 2}) {
            SearchResult every = new BreadthFirstSearch(1_000_000, 8, threads, Progress.NONE).search(TWO_MISTAKES, s);
            assertThat(every.violatedInvariants()).containsExactly(Invariant.AGGREGATE_ORDER, Invariant.STALE_ACK_REJECTED);
            assertThat(every.verdictLine()).isEqualTo("VIOLATION AGGREGATE_ORDER, STALE_ACK_REJECTED");
            // the first is the one a search that ends at its first violation reports
            assertThat(every.counterexample().map(TraceFormatter::format)).isEqualTo(first.counterexample().map(TraceFormatter::format));
            for (Counterexample cx : every.counterexamples()) {
                // its own trace: nothing broke before its last step, and no shorter path breaks it (a search of it alone)
                Judge.Judgement again = Judge.judge(new dev.relaycheck.model.RelayModel(TWO_MISTAKES, s), cx.path(), false);
                assertThat(again.violations()).as(cx.invariant().name()).contains(cx.violation());
                assertThat(again.pathSteps()).isEqualTo(cx.path().size());
                SearchResult alone = new BreadthFirstSearch(1_000_000, 8, Progress.NONE)
                        .judging(Judging.FIRST.only(java.util.EnumSet.of(cx.invariant()))).search(TWO_MISTAKES, s);
                assertThat(alone.counterexample().orElseThrow().path()).as(cx.invariant().name()).hasSameSizeAs(cx.path());
            }
        }
    }

    @Test
    void aSearchOfSomeInvariantsGoesOnThroughTheOthers() {
        Scenario s = ReferenceScenarios.mixed();
        var stale = java.util.EnumSet.of(Invariant.STALE_ACK_REJECTED, Invariant.SINGLE_LIVE_LEASE);
        SearchResult some = new BreadthFirstSearch(1_000_000, 8, Progress.NONE).judging(Judging.EVERY.only(stale)).search(TWO_MISTAKES, s);
        assertThat(some.violatedInvariants()).containsExactly(Invariant.STALE_ACK_REJECTED);
        assertThat(some.judged()).isEqualTo(stale);
        assertThat(some.engine()).startsWith("readable (AGGREGATE_ORDER, not judged here, broke on the packed engine");
        assertThat(some.summary()).contains("judged: [STALE_ACK_REJECTED, SINGLE_LIVE_LEASE] only");
        // on the reference logic nothing breaks, and the packed search of every invariant stands for the search of some
        SearchResult reference = new BreadthFirstSearch(1_000_000, 8, Progress.NONE).judging(Judging.EVERY.only(stale))
                .search(LogicCatalogue.correct(), s);
        assertThat(reference.engine()).isEqualTo("packed");
        assertThat(reference.verdictLine()).isEqualTo("OK");
        // the order mistake alone does not break what this search judges
        SearchResult order = new BreadthFirstSearch(1_000_000, 8, Progress.NONE).judging(Judging.EVERY.only(stale))
                .search(LogicCatalogue.byId("no-head-of-aggregate").orElseThrow(), s);
        assertThat(order.violated()).as(order.summary()).isFalse();
        assertThat(order.states()).isGreaterThan(reference.states());
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
            assertThat(two.counterexamples().stream().map(TraceFormatter::format).toList())
                    .isEqualTo(one.counterexamples().stream().map(TraceFormatter::format).toList());
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
            SearchResult r = new BreadthFirstSearch(e.maxStates(), 8, threads, Progress.NONE).judging(Judging.FIRST)
                    .search(logic, e.scenario());
            assertThat(List.of(r.states(), r.transitions(), (long) r.depth()))
                    .as("%s on %s", e.logic(), e.scenario().name()).containsExactly(e.states(), e.transitions(), (long) e.depth());
        }
    }
}
