package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.cli.ChildCli;
import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.space.Judging;
import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario.InstanceIds;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.testsupport.UsersLogics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * same set of invariants, each with the same trace. The logic-by-scenario cases are a {@link Sample} of the table
 * by default, all of it with {@code -Drelaycheck.long=true}.
 */
class PackedAgreementTest {
    private static final int WALKS = 12;
    private static final int DEPTH = 60;

    /** The shipped logics, then the users' (but those whose exact tokens outgrow their field: see the renumbered tests). */
    private static List<RelayLogic> logics() {
        List<RelayLogic> all = new ArrayList<>(LogicCatalogue.all());
        UserLogics.all().stream().filter(l -> !UserLogics.outgrowsExactTokens(l)).forEach(all::add);
        return all;
    }

    /** Every logic with a global token counter, the shipped ones and the users'. */
    private static List<RelayLogic> renumberable() {
        List<RelayLogic> all = new ArrayList<>(LogicCatalogue.all());
        all.addAll(UserLogics.all());
        all.removeIf(l -> l.tokenPolicy() != RelayLogic.TokenPolicy.GLOBAL_COUNTER);
        return all;
    }

    /** The packed model of a logic: the re-implementation of a shipped one, the memoised tables of any other. */
    static PackedModel packedModel(RelayLogic logic, Scenario scenario) {
        Optional<PackedLogic> shipped = PackedLogic.of(logic).filter(l -> PackedSpace.reimplemented(scenario));
        if (shipped.isPresent()) {
            return new PackedModel(scenario, shipped.get());
        }
        LogicTable.Shared table = new LogicTable.Shared(new RelayModel(logic, scenario));
        PackedLayout layout = new PackedLayout(scenario, table.layoutSpec());
        table.sizeFor(layout);
        return new PackedModel(table, layout);
    }

    /** The packed model of a logic with its tokens renumbered canonically, through the tables. */
    static PackedModel renumberingModel(RelayLogic logic, Scenario scenario) {
        LogicTable.Shared table = new LogicTable.Shared(new RelayModel(logic, scenario), true);
        PackedLayout layout = new PackedLayout(scenario, table.layoutSpec());
        table.sizeFor(layout);
        return new PackedModel(table, layout);
    }

    /**
     * Renumbered, the packed engine is the readable model renumbered: on seeded walks through every scenario under
     * every logic that compares tokens only by order and equality (a global counter: per-row versions are not
     * renumbered; the readable walk keeps its exact tokens), every
     * packed state is the readable one renumbered, and the steps, outcomes and healing agree.
     */
    static Stream<Arguments> renumberableLogicsAndScenarios() {
        return Sample.cases(renumberable(), ReferenceScenarios.all());
    }

    static Stream<Arguments> renumberableExhaustiveCases() {
        return Sample.exhaustiveCases(renumberable());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("renumberableLogicsAndScenarios")
    void renumberedTheEnginesAgreeOnEveryStep(RelayLogic logic, Scenario scenario) {
        assertThat(AgreementProbe.disagreement(logic, scenario, scenario.name().hashCode() * 7L + logic.id().hashCode(), true))
                .as(logic.id() + " on " + scenario.name()).isEmpty();
    }

    /** Renumbered searches count what the readable model counts renumbered. */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("renumberableExhaustiveCases")
    void renumberedSearchesReportTheSameCounts(RelayLogic logic, Scenario scenario) {
        SearchResult readable = new BreadthFirstSearch(1_000_000, 8, 1, Engine.READABLE,
                BreadthFirstSearch.Tokens.CANONICAL, Progress.NONE).search(logic, scenario);
        SearchResult packed = new BreadthFirstSearch(1_000_000, 8, 1, Engine.PACKED,
                BreadthFirstSearch.Tokens.CANONICAL, Progress.NONE).search(logic, scenario);
        assertThat(packed.engine()).startsWith("packed");
        assertSameResult(readable, packed);
    }

    /** A logic that reads token values is found out by the probe, and auto runs it on exact tokens. */
    @Test
    void aLogicThatReadsTokenValuesIsNotRenumbered() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("relaycheck-odd-tokens");
        java.nio.file.Path jar = dev.relaycheck.checker.cli.ChildCli.compileJar(dir, "odd-tokens",
                java.util.Map.of("users.OddTokensOnly", UserLogics.READS_TOKEN_VALUES));
        RelayLogic odd = (RelayLogic) new java.net.URLClassLoader(new java.net.URL[]{jar.toUri().toURL()},
                getClass().getClassLoader()).loadClass("users.OddTokensOnly").getDeclaredConstructor().newInstance();
        Scenario s = ReferenceScenarios.staleAckAfterExpiry();
        assertThat(AgreementProbe.disagreement(odd, s, 1, true)).hasValueSatisfying(line ->
                assertThat(line).startsWith("the packed engine with tokens renumbered disagrees with the readable model on logic "
                        + "odd-tokens-only's ").contains("the logic reads token values"));
        assertThat(AgreementProbe.disagreement(odd, s, 1, false)).isEmpty();
        SearchResult canonical = new BreadthFirstSearch(1_000_000, 8, 1, Engine.AUTO, BreadthFirstSearch.Tokens.CANONICAL,
                Progress.NONE).search(odd, s);
        assertThat(canonical.engine()).startsWith("readable, tokens renumbered canonically (the packed engine with tokens renumbered");
    }

    /**
     * Tokens issued with a step of 7 outgrow the exact field on a long run (soak's first states); auto goes on with
     * them renumbered on the packed engine and says why, with the readable model's renumbered counts.
     */
    @Test
    void exactTokensThatOutgrowTheirFieldGoOnRenumbered() {
        RelayLogic step = UserLogics.all().stream().filter(l -> l.id().equals("sequence-step")).findFirst().orElseThrow();
        SearchResult auto = new BreadthFirstSearch(60_000, 8, 2, Engine.AUTO, BreadthFirstSearch.Tokens.AUTO, Progress.NONE)
                .search(step, ReferenceScenarios.soak());
        assertThat(auto.engine()).startsWith("packed, tokens renumbered canonically (exact tokens outgrew the packed encoding: ");
        assertSameResult(new BreadthFirstSearch(60_000, 8, 2, Engine.READABLE, BreadthFirstSearch.Tokens.CANONICAL,
                Progress.NONE).search(step, ReferenceScenarios.soak()), auto);
    }

    /** The readable view of a packed model's states: a user's logic's marker keys come from its table. */
    static ReadableView view(RelayLogic logic, Scenario scenario, PackedModel packed) {
        return new ReadableView(scenario, logic, packed.at, packed.shared());
    }

    static Stream<Arguments> logicsAndScenarios() {
        List<RelayLogic> logics = logics();
        List<Scenario> scenarios = ReferenceScenarios.all();
        for (RelayLogic logic : logics) { // every case, run or not, is one the packed engine takes
            for (Scenario s : scenarios) {
                assertThat(PackedSpace.whyNot(new RelayModel(logic, s))).as(logic.id() + " on " + s.name()).isEmpty();
            }
        }
        return Sample.cases(logics, scenarios);
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("logicsAndScenarios")
    void everyStepAgreesWithTheReadableModel(RelayLogic logic, Scenario scenario) {
        RelayModel model = new RelayModel(logic, scenario);
        PackedModel packed = packedModel(logic, scenario);
        ReadableView view = view(logic, scenario, packed);
        SplitMix64 random = new SplitMix64(scenario.name().hashCode() * 31L + logic.id().hashCode());
        int[] steps = new int[packed.at.maxSteps];
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
                            : !Invariants.checkTransition(scenario, logic.tokenPolicy(), r, step, expected).isEmpty() ? Successors.BREAKS_TRANSITION
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
        return Sample.exhaustiveCases(logics());
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

    /**
     * Shared and reused instance ids (no reference scenario has them): a lease's owner then names more than one
     * poller, and a logic that reads the owner (a restarted node re-claiming its own rows, an ack by owner, a renewal
     * fenced by owner) must be judged by which poller holds the row, as the readable model judges it.
     */
    static Stream<Arguments> sharedIdCases() {
        List<RelayLogic> logics = new ArrayList<>(List.of(LogicCatalogue.correct(), reclaimsOwn()));
        UserLogics.all().stream().filter(l -> Set.of("poller-and-clock", "owner-batch-unlock", "hazard-shapes").contains(l.id()))
                .forEach(logics::add);
        List<Arguments> out = new ArrayList<>();
        for (RelayLogic logic : logics) {
            for (InstanceIds ids : List.of(InstanceIds.SHARED, InstanceIds.REUSED)) {
                for (Scenario s : List.of(ReferenceScenarios.event61LostAck(), ReferenceScenarios.crashRestart(),
                        ReferenceScenarios.mixed())) {
                    out.add(Arguments.of(logic, s.toBuilder().instanceIds(ids).build(), ids.text()));
                }
            }
        }
        return out.stream();
    }

    private static RelayLogic reclaimsOwn;

    /** A restarted node taking its own rows back (it re-claims a row whose live lease names its instance id). */
    private static synchronized RelayLogic reclaimsOwn() {
        if (reclaimsOwn == null) {
            try {
                Path jar = ChildCli.compileJar(Files.createTempDirectory("relaycheck-reclaim-own"), "acme",
                        Map.of("com.acme.ReclaimOwn", UsersLogics.RECLAIM_OWN));
                URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, PackedAgreementTest.class.getClassLoader());
                reclaimsOwn = (RelayLogic) loader.loadClass("com.acme.ReclaimOwn").getDeclaredConstructor().newInstance();
            } catch (IOException | ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return reclaimsOwn;
    }

    @ParameterizedTest(name = "{0} on {1}, instance ids {2}")
    @MethodSource("sharedIdCases")
    void sharedAndReusedInstanceIdsAgreeStepByStepAndCountByCount(RelayLogic logic, Scenario scenario, String ids) {
        everyStepAgreesWithTheReadableModel(logic, scenario);
        exhaustiveSearchesReportTheSameCountsAndTheSameViolatedInvariants(logic, scenario);
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
        assertThatThrownBy(() -> packed.at.encode(s)).isInstanceOf(Overflow.class).hasMessageContaining("past its field");
        int[] t = packed.initial();
        t[PackedLayout.CLOCK] = -1;
        assertThatThrownBy(() -> packed.at.encode(t)).isInstanceOf(Overflow.class);
        long[] words = packed.at.encode(packed.initial());
        assertThatThrownBy(() -> packed.at.pack(PackedLayout.LAST_TOKEN, 1 << 20, words, 0))
                .isInstanceOf(Overflow.class).hasMessageContaining("slot " + PackedLayout.LAST_TOKEN);
        int alwaysZero = packed.at.row(0) + PackedLayout.MARKER_TOKEN; // the correct logic keys markers by event alone
        assertThatThrownBy(() -> packed.at.pack(alwaysZero, 1, words, 0))
                .isInstanceOf(Overflow.class).hasMessageContaining("past its field's 0");
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

    /** Renewals, skew, open producers, cursors and the cleanup, their finer outcomes and their variants run on the packed engine, through its tables. */
    @Test
    void laterHazardsRunOnThePackedEngine() {
        for (String id : List.of("purge-at-ack", "retention-shorter-than-redelivery", "batch-ack-whole-batch",
                "ignores-settle-result", "cleanup-deletes-in-flight")) {
            assertThat(PackedLogic.of(LogicCatalogue.byId(id).orElseThrow())).as(id).isEmpty();
        }
        for (Scenario s : List.of(ReferenceScenarios.markerRetention(), ReferenceScenarios.batchAck(),
                ReferenceScenarios.unmatchedSettle(), ReferenceScenarios.leaseRenewal(), ReferenceScenarios.clockSkew(),
                ReferenceScenarios.commitVisibility(), ReferenceScenarios.outboxCleanup())) {
            assertThat(PackedSpace.whyNot(new RelayModel(LogicCatalogue.correct(), s))).as(s.name()).isEmpty();
            SearchResult r = new BreadthFirstSearch(100_000, 8, Progress.NONE).search(LogicCatalogue.correct(), s);
            assertThat(r.engine()).as(s.name()).isEqualTo("packed");
        }
        SearchResult variant = new BreadthFirstSearch(100_000, 8, Progress.NONE)
                .search(LogicCatalogue.byId("purge-at-ack").orElseThrow(), ReferenceScenarios.event61LostAck());
        assertThat(variant.engine()).isEqualTo("packed");
        assertThat(variant.counterexample().orElseThrow().invariant().name()).isEqualTo("EFFECT_AT_MOST_ONCE");
    }

    private static SearchResult search(Engine engine, RelayLogic logic, Scenario s, int maxStates, int threads) {
        return search(engine, logic, s, maxStates, threads, Judging.EVERY);
    }

    private static SearchResult search(Engine engine, RelayLogic logic, Scenario s, int maxStates, int threads, Judging judging) {
        SearchResult r = new BreadthFirstSearch(maxStates, 8, threads, engine, Progress.NONE).judging(judging).search(logic, s);
        String expected = engine == Engine.PACKED ? "packed" : "readable";
        // the renewal, skew and cursor variants in a scenario without their hazard are searched as the
        // reference logic on the packed engine; the readable search of the variant itself must agree with that
        if (!(engine == Engine.PACKED && r.engine().startsWith("packed (" + logic.id() + " searched as the reference logic"))) {
            assertThat(r.engine()).isEqualTo(expected);
        }
        return r;
    }

    static void assertSameResult(SearchResult readable, SearchResult packed) {
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
