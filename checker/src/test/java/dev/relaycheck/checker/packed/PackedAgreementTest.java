package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.checker.search.Judging;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.search.Successors;
import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The packed engine must be the readable model, only faster. Step by step: on seeded walks through every
 * reference scenario under every shipped logic, and under logics a user wrote (compiled in the test, outside
 * the project: {@link UserLogics}), which the engine runs through its memoised tables, both list the same steps, and every step leads to equal states
 * (or both report it broke an invariant, of the same kind), with the same witnesses and the same healing
 * verdict. Count by count: exhaustive searches on both engines report the same numbers and counterexamples, the
 * searches that end at their first violation and those that go on to report every invariant broken, which name the
 * same set of invariants, each with the same trace.
 */
class PackedAgreementTest {
    private static final int WALKS = 12;
    private static final int DEPTH = 60;

    /** The shipped logics, then the users'. */
    private static List<RelayLogic> logics() {
        List<RelayLogic> all = new ArrayList<>(LogicCatalogue.all());
        all.addAll(UserLogics.all());
        return all;
    }

    /** The packed model of a logic: the re-implementation of a shipped one, the memoised tables of any other. */
    static PackedModel packedModel(RelayLogic logic, Scenario scenario) {
        Optional<PackedLogic> shipped = PackedLogic.of(logic);
        if (shipped.isPresent()) {
            return new PackedModel(scenario, shipped.get());
        }
        LogicTable.Shared table = new LogicTable.Shared(new RelayModel(logic, scenario));
        PackedLayout layout = new PackedLayout(scenario, table);
        table.sizeFor(layout);
        return new PackedModel(table, layout);
    }

    /** The readable view of a packed model's states: a user's logic's marker keys come from its table. */
    static ReadableView view(RelayLogic logic, Scenario scenario, PackedModel packed) {
        return new ReadableView(scenario, logic, packed.at, packed.shared());
    }

    static Stream<Arguments> logicsAndScenarios() {
        List<Arguments> out = new ArrayList<>();
        for (RelayLogic logic : logics()) {
            for (Scenario s : ReferenceScenarios.all()) {
                if (packedTakes(logic, s)) { // issue 20's variants and scenarios run on the readable model only
                    out.add(Arguments.of(logic, s));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("logicsAndScenarios")
    void everyStepAgreesWithTheReadableModel(RelayLogic logic, Scenario scenario) {
        RelayModel model = new RelayModel(logic, scenario);
        PackedModel packed = packedModel(logic, scenario);
        ReadableView view = view(logic, scenario, packed);
        SplitMix64 random = new SplitMix64(scenario.name().hashCode() * 31L + logic.id().hashCode());
        int[] steps = new int[PackedModel.maxSteps(scenario.pollers().size())];
        for (int walk = 0; walk < WALKS; walk++) {
            RelayState r = model.initial();
            int[] s = packed.initial();
            assertThat(view.state(s)).isEqualTo(r);
            for (int depth = 0; depth < DEPTH; depth++) {
                String at = logic.id() + "/" + scenario.name() + " walk " + walk + " depth " + depth + " in " + r.describe();
                int n = packed.enabled(s, steps, false);
                assertThat(steps(packed, s, steps, n)).as("enabled steps, " + at).isEqualTo(model.enabled(r));
                List<Step> fair = model.enabledWithoutFaults(r);
                fair.removeIf(x -> x instanceof Step.Tick);
                int[] fairSteps = new int[steps.length];
                assertThat(steps(packed, s, fairSteps, packed.enabled(s, fairSteps, true))).as("fair steps, " + at).isEqualTo(fair);
                if (depth % 5 == 0) {
                    assertThat(packed.healingFails(s)).as("healing, " + at).isEqualTo(Healing.check(model, r).isPresent());
                }
                List<Integer> clean = new ArrayList<>();
                List<int[]> next = new ArrayList<>();
                List<RelayState> readableNext = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    Step step = model.enabled(r).get(i);
                    StepResult expected = model.applyEnabled(r, step);
                    int[] t = s.clone();
                    long[] changed = packed.at.encode(s); // the words of s, into which the step packs each write
                    int result = packed.apply(t, steps[i], changed, 0);
                    int[] undone = t.clone();
                    packed.undo(undone);
                    assertThat(undone).as("undoing " + step + ", " + at).isEqualTo(s);
                    byte breaks = !Invariants.checkState(scenario, expected.state()).isEmpty() ? Successors.BREAKS_STATE
                            : !Invariants.checkTransition(r, step, expected).isEmpty() ? Successors.BREAKS_TRANSITION
                            : Successors.NONE;
                    assertThat(PackedModel.breaks(result)).as("what " + step + " breaks, " + at).isEqualTo(breaks);
                    assertThat(PackedModel.witnesses(result)).as("witnesses of " + step + ", " + at)
                            .isEqualTo(Successors.witnessMask(expected.outcome()));
                    if (breaks != Successors.BREAKS_STATE) {
                        assertThat(view.state(t)).as("state after " + step + ", " + at).isEqualTo(expected.state());
                        int[] roundTrip = new int[t.length];
                        long[] words = packed.at.encode(t);
                        packed.at.decode(words, 0, roundTrip);
                        assertThat(roundTrip).as("encoding of the state after " + step + ", " + at).isEqualTo(t);
                        assertThat(changed).as("encoding of the change " + step + " made, " + at).isEqualTo(words);
                    }
                    if (breaks == Successors.NONE) {
                        clean.add(i);
                        next.add(t);
                        readableNext.add(expected.state());
                    }
                }
                if (clean.isEmpty()) {
                    break;
                }
                int pick = random.nextInt(clean.size());
                s = next.get(pick);
                r = readableNext.get(pick);
            }
        }
    }

    private static List<Step> steps(PackedModel packed, int[] s, int[] codes, int n) {
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(packed.readableStep(s, codes[i]));
        }
        return out;
    }

    static Stream<Arguments> exhaustiveCases() {
        List<Arguments> out = new ArrayList<>();
        for (RelayLogic logic : logics()) {
            for (Scenario s : ReferenceScenarios.defaults()) {
                if (!s.name().equals("mixed-big") && packedTakes(logic, s)) {
                    out.add(Arguments.of(logic, s));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("exhaustiveCases")
    void exhaustiveSearchesReportTheSameCountsAndTheSameViolatedInvariants(RelayLogic logic, Scenario scenario) {
        for (Judging judging : List.of(Judging.FIRST, Judging.EVERY)) {
            SearchResult readable = search(Engine.READABLE, logic, scenario, 1_000_000, 1, judging);
            SearchResult packed = search(Engine.PACKED, logic, scenario, 1_000_000, 1, judging);
            assertSameResult(readable, packed);
            assertThat(packed.violatedInvariants()).as(judging.toString()).isEqualTo(readable.violatedInvariants());
        }
    }

    @Test
    void mixedBigAndABoundedSoakReportTheSameCountsOnAnyNumberOfThreads() {
        RelayLogic correct = LogicCatalogue.correct();
        SearchResult readable = search(Engine.READABLE, correct, ReferenceScenarios.mixedBig(), 1_000_000, 2);
        assertThat(readable.states()).isEqualTo(432_345); // the readable model's count of mixed-big
        assertSameResult(readable, search(Engine.PACKED, correct, ReferenceScenarios.mixedBig(), 1_000_000, 1));
        assertSameResult(readable, search(Engine.PACKED, correct, ReferenceScenarios.mixedBig(), 1_000_000, 2));
        assertSameResult(readable, search(Engine.PACKED, correct, ReferenceScenarios.mixedBig(), 1_000_000, 3));
        SearchResult soak = search(Engine.READABLE, correct, ReferenceScenarios.soak(), 60_000, 2);
        assertThat(soak.incomplete()).isPresent();
        assertSameResult(soak, search(Engine.PACKED, correct, ReferenceScenarios.soak(), 60_000, 2));
    }

    @Test
    void aValuePastItsBitFieldStopsThePackingInsteadOfWrappingAround() {
        PackedModel packed = new PackedModel(ReferenceScenarios.mixed(), PackedLogic.CORRECT);
        int[] s = packed.initial();
        s[PackedLayout.LAST_TOKEN] = 1 << 20; // far past any token mixed can issue
        assertThatThrownBy(() -> packed.at.encode(s)).isInstanceOf(PackedSpace.Overflow.class).hasMessageContaining("past its field");
        int[] t = packed.initial();
        t[PackedLayout.CLOCK] = -1;
        assertThatThrownBy(() -> packed.at.encode(t)).isInstanceOf(PackedSpace.Overflow.class);
        long[] words = packed.at.encode(packed.initial());
        assertThatThrownBy(() -> packed.at.pack(PackedLayout.LAST_TOKEN, 1 << 20, words, 0))
                .isInstanceOf(PackedSpace.Overflow.class).hasMessageContaining("slot " + PackedLayout.LAST_TOKEN);
        int alwaysZero = packed.at.row(0) + PackedLayout.MARKER_TOKEN; // the correct logic keys markers by event alone
        assertThatThrownBy(() -> packed.at.pack(alwaysZero, 1, words, 0))
                .isInstanceOf(PackedSpace.Overflow.class).hasMessageContaining("past its field's 0");
        assertThat(words).as("a refused value leaves the words as they were").isEqualTo(packed.at.encode(packed.initial()));
    }

    @Test
    void autoTakesThePackedEngineForAnyLogic() {
        Scenario s = ReferenceScenarios.doubleClaim();
        BreadthFirstSearch auto = new BreadthFirstSearch(100_000, 8, Progress.NONE);
        assertThat(auto.search(LogicCatalogue.correct(), s).engine()).isEqualTo("packed");
        RelayLogic users = new CorrectRelayLogic() {
            @Override
            public String id() {
                return "users-own";
            }
        };
        SearchResult theirs = auto.search(users, s);
        assertThat(theirs.engine()).isEqualTo("packed");
        assertThat(theirs.states()).isEqualTo(auto.search(LogicCatalogue.correct(), s).states());
        assertThat(PackedSpace.whyNot(new RelayModel(users, s))).isEmpty();
    }

    @Test
    void aUsersCopyOfTheCorrectLogicAgreesOnMixedBigAndABoundedSoakOnTwoThreads() {
        RelayLogic copy = UserLogics.all().stream().filter(l -> l.id().equals("copy-of-correct")).findFirst().orElseThrow();
        SearchResult readable = search(Engine.READABLE, copy, ReferenceScenarios.mixedBig(), 1_000_000, 2);
        assertThat(readable.states()).isEqualTo(432_345);
        assertSameResult(readable, search(Engine.PACKED, copy, ReferenceScenarios.mixedBig(), 1_000_000, 2));
        assertSameResult(search(Engine.READABLE, copy, ReferenceScenarios.soak(), 60_000, 2),
                search(Engine.PACKED, copy, ReferenceScenarios.soak(), 60_000, 2));
    }

    @Test
    void aLogicThatKeysMarkersByTokenAfterTheProbeSaidOtherwiseFallsBackToTheReadableModel() {
        RelayLogic late = new CorrectRelayLogic() { // keys by event until token 3, then by delivery
            @Override
            public String id() {
                return "late-token-key";
            }

            @Override
            public String dedupKey(dev.relaycheck.model.Event event, long token) {
                return token < 3 ? event.id() : event.id() + "#" + token;
            }
        };
        Scenario s = ReferenceScenarios.mixed();
        SearchResult auto = new BreadthFirstSearch(1_000_000, 8, Progress.NONE).search(late, s);
        assertThat(auto.engine()).startsWith("readable (the packed encoding overflowed: logic late-token-key keys the marker");
        assertSameResult(search(Engine.READABLE, late, s, 1_000_000, 1), auto);
    }

    private static boolean packedTakes(RelayLogic logic, Scenario s) {
        return PackedSpace.whyNot(new RelayModel(logic, s)).isEmpty();
    }

    /** Issue 20: the packed engine declines the new hazards' variants and scenarios; auto falls back, saying so. */
    @Test
    void issue20HazardsRunOnTheReadableModelWithANote() {
        for (String id : List.of("purge-at-ack", "retention-shorter-than-redelivery", "batch-ack-whole-batch",
                "ignores-settle-result")) {
            assertThat(PackedLogic.of(LogicCatalogue.byId(id).orElseThrow())).as(id).isEmpty();
        }
        for (Scenario s : List.of(ReferenceScenarios.markerRetention(), ReferenceScenarios.batchAck(),
                ReferenceScenarios.unmatchedSettle())) {
            assertThat(PackedSpace.whyNot(new RelayModel(LogicCatalogue.correct(), s))).as(s.name())
                    .startsWith("scenario " + s.name() + " requires ");
            SearchResult r = new BreadthFirstSearch(100_000, 8, Progress.NONE).search(LogicCatalogue.correct(), s);
            assertThat(r.engine()).as(s.name()).startsWith("readable (the packed engine declined: scenario " + s.name());
            assertThatThrownBy(() -> search(Engine.PACKED, LogicCatalogue.correct(), s, 100_000, 1))
                    .hasMessageContaining("does not take logic correct on scenario " + s.name());
        }
        SearchResult variant = new BreadthFirstSearch(100_000, 8, Progress.NONE)
                .search(LogicCatalogue.byId("purge-at-ack").orElseThrow(), ReferenceScenarios.event61LostAck());
        assertThat(variant.engine()).startsWith("readable (the packed engine declined: ");
        // the packed engine still takes every old scenario with the correct logic
        assertThat(new BreadthFirstSearch(100_000, 8, Progress.NONE).search(LogicCatalogue.correct(),
                ReferenceScenarios.doubleClaim()).engine()).isEqualTo("packed");
    }

    private static SearchResult search(Engine engine, RelayLogic logic, Scenario s, int maxStates, int threads) {
        return search(engine, logic, s, maxStates, threads, Judging.EVERY);
    }

    private static SearchResult search(Engine engine, RelayLogic logic, Scenario s, int maxStates, int threads, Judging judging) {
        SearchResult r = new BreadthFirstSearch(maxStates, 8, threads, engine, Progress.NONE).judging(judging).search(logic, s);
        String expected = engine == Engine.PACKED ? "packed" : "readable";
        // issue 20's renewal, skew and cursor variants in a scenario without their hazard are searched as the
        // reference logic on the packed engine; the readable search of the variant itself must agree with that
        if (!(engine == Engine.PACKED && r.engine().startsWith("packed (" + logic.id() + " searched as the reference logic"))) {
            assertThat(r.engine()).isEqualTo(expected);
        }
        return r;
    }

    private static void assertSameResult(SearchResult readable, SearchResult packed) {
        String what = readable.logic().id() + " on " + readable.scenario().name();
        assertThat(packed.summary()).as(what).isEqualTo(readable.summary());
        assertThat(packed.verdictLine()).as(what).isEqualTo(readable.verdictLine());
        assertThat(packed.incomplete()).as(what).isEqualTo(readable.incomplete());
        assertThat(packed.counterexamples().stream().map(c -> c.path()).toList()).as(what)
                .isEqualTo(readable.counterexamples().stream().map(c -> c.path()).toList());
        assertThat(packed.counterexamples().stream().map(c -> c.violation()).toList()).as(what)
                .isEqualTo(readable.counterexamples().stream().map(c -> c.violation()).toList());
        assertThat(Optional.of(packed.healingChecks())).as(what).contains(readable.healingChecks());
    }
}
