package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.cli.ChildCli;
import dev.relaycheck.checker.search.BreadthFirstSearch.Engine;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.trace.Judge;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Symmetry over pollers: the symmetric search keeps exactly one state per orbit (counted against a brute-force
 * enumeration of the readable model's states, grouped by poller renaming), gives every catalogue logic and every
 * user's logic the verdict the full search gives on every reference scenario, with counterexamples that replay on
 * the concrete pollers, and declines a logic whose decisions depend on which poller asks, naming it.
 */
class PollerSymmetryTest {

    private static SearchResult search(RelayLogic logic, Scenario s, boolean symmetric, int threads) {
        BreadthFirstSearch bfs = new BreadthFirstSearch(2_000_000, 8, threads, Engine.AUTO, Progress.NONE);
        return (symmetric ? bfs.overPollerSymmetry() : bfs).search(logic, s);
    }

    /** Every state the readable model reaches without breaking an invariant, by brute force. */
    private static List<RelayState> reachable(RelayModel model) {
        Set<RelayState> seen = new HashSet<>();
        ArrayDeque<RelayState> todo = new ArrayDeque<>(List.of(model.initial()));
        seen.add(model.initial());
        while (!todo.isEmpty()) {
            RelayState s = todo.poll();
            for (Step step : model.enabled(s)) {
                StepResult r = model.applyEnabled(s, step);
                if (Invariants.check(model.scenario(), model.logic().tokenPolicy(), s, step, r).isEmpty() && seen.add(r.state())) {
                    todo.add(r.state());
                }
            }
        }
        return new ArrayList<>(seen);
    }

    /** The orbit of {@code s} under every renaming of the pollers, as a set of states. */
    private static Set<RelayState> orbit(Scenario scenario, RelayState s) {
        Set<RelayState> out = new HashSet<>();
        permute(scenario.pollers(), new ArrayList<>(), perm -> {
            UnaryOperator<String> names = name -> scenario.pollers().contains(name)
                    ? perm.get(scenario.pollers().indexOf(name)) : name;
            out.add(PollerSymmetry.rename(scenario, s, names));
        });
        return out;
    }

    private static void permute(List<String> names, List<String> prefix, Consumer<List<String>> each) {
        if (prefix.size() == names.size()) {
            each.accept(prefix);
            return;
        }
        for (String n : names) {
            if (!prefix.contains(n)) {
                prefix.add(n);
                permute(names, prefix, each);
                prefix.remove(prefix.size() - 1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("orbitCases")
    void theSymmetricSearchKeepsOneStatePerOrbit(String name, RelayLogic logic, Scenario scenario) {
        List<RelayState> all = reachable(new RelayModel(logic, scenario));
        Set<RelayState> counted = new HashSet<>();
        int orbits = 0;
        for (RelayState s : all) {
            if (!counted.contains(s)) {
                orbits++;
                counted.addAll(orbit(scenario, s));
            }
        }
        SearchResult full = search(logic, scenario, false, 1);
        SearchResult symmetric = search(logic, scenario, true, 1);
        assertThat(full.states()).as("full count, " + name).isEqualTo(all.size());
        assertThat(symmetric.states()).as("orbits, " + name).isEqualTo(orbits);
        assertThat(symmetric.engine()).endsWith("symmetric over pollers");
        assertThat(search(logic, scenario, true, 2).summary()).as("on two threads").isEqualTo(symmetric.summary());
    }

    static Stream<Arguments> orbitCases() {
        RelayLogic deliverAndAck = UserLogics.all().stream().filter(l -> l.id().equals("deliver-and-ack")).findFirst().orElseThrow();
        return Stream.of(Arguments.of("correct on double-claim", LogicCatalogue.correct(), ReferenceScenarios.doubleClaim()),
                Arguments.of("correct on mixed", LogicCatalogue.correct(), ReferenceScenarios.mixed()),
                Arguments.of("correct on lease-renewal", LogicCatalogue.correct(), ReferenceScenarios.leaseRenewal()),
                Arguments.of("deliver-and-ack on crash-restart", deliverAndAck, ReferenceScenarios.crashRestart()));
    }

    static Stream<Arguments> catalogueAndUsers() {
        List<RelayLogic> logics = new ArrayList<>(LogicCatalogue.all());
        UserLogics.all().stream().filter(l -> !UserLogics.outgrowsExactTokens(l)).forEach(logics::add);
        return IntStream.range(0, logics.size()).filter(Sample::takes).mapToObj(i -> Arguments.of(logics.get(i)));
    }

    /**
     * The whole catalogue and every user's logic ({@link Sample}: a part by default), both ways, on every default
     * scenario: the same verdict (the invariant broken, or clean, or the witnesses never reached), a symmetric count
     * no greater than the full one, and a counterexample that the readable model reproduces on the concrete pollers.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogueAndUsers")
    void theSymmetricSearchGivesTheFullSearchsVerdicts(RelayLogic logic) {
        for (Scenario s : ReferenceScenarios.defaults()) {
            SearchResult full = search(logic, s, false, 2);
            SearchResult symmetric = search(logic, s, true, 2);
            String what = logic.id() + " on " + s.name() + " (" + symmetric.engine() + ")";
            assertThat(verdict(symmetric)).as(what).isEqualTo(verdict(full));
            assertThat(symmetric.states()).as(what).isLessThanOrEqualTo(full.states());
            // a violation the healing run ran into (or EVENTUAL_DELIVERY itself) is judged with the healing run
            symmetric.counterexample().ifPresent(cx -> assertThat(Judge.judge(new RelayModel(logic, s), cx.path(),
                    cx.trace().stream().anyMatch(t -> t.healing())).violation())
                    .as("the counterexample replays, " + what).hasValueSatisfying(v -> assertThat(v.invariant()).isEqualTo(cx.invariant())));
        }
    }

    private static String verdict(SearchResult r) {
        return r.counterexample().map(cx -> "violation " + cx.invariant()).orElse(r.passed() ? "clean"
                : r.logicFault().isPresent() ? "logic fault" : r.verdictLine());
    }

    @TempDir
    Path dir;

    /** Through the CLI in a child JVM: the engine's line says so, and the counterexample's replay line reproduces it. */
    @Test
    void exploreOverSymmetryPrintsAConcreteCounterexampleThatReplays() {
        ChildCli.Run found = ChildCli.run(dir, "explore", "--logic",
                "claim-ignores-lease", "-s", "mixed-big", "--symmetry", "pollers", "--results", dir.resolve("results").toString());
        assertThat(found.exit()).as(found.toString()).isEqualTo(1);
        assertThat(found.out()).contains("VIOLATION SINGLE_LIVE_LEASE").contains("engine packed, symmetric over pollers");
        Matcher m = Pattern.compile("relaycheck replay (rc1:\\S+)").matcher(found.out());
        assertThat(m.find()).as(found.out()).isTrue();
        ChildCli.Run replayed = ChildCli.run(dir, "replay", m.group(1));
        assertThat(replayed.exit()).as(replayed.toString()).isEqualTo(1);
        assertThat(replayed.out()).contains("REPRODUCED SINGLE_LIVE_LEASE");
        ChildCli.Run bad = ChildCli.run(dir, "explore", "--symmetry", "events");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err().trim()).isEqualTo("relaycheck: --symmetry must be off or pollers, not 'events'");
    }

    @Test
    void aLogicWhoseClaimDependsOnWhichPollerAsksIsSearchedWhole() {
        RelayLogic pollerAware = UserLogics.all().stream().filter(l -> l.id().equals("poller-and-clock")).findFirst().orElseThrow();
        Scenario s = ReferenceScenarios.mixed();
        assertThat(PollerSymmetry.whyNot(new RelayModel(pollerAware, s)))
                .startsWith("logic poller-and-clock's decisions depend on which poller asks (in t=");
        SearchResult r = search(pollerAware, s, true, 1);
        assertThat(r.engine()).startsWith("packed (every state: pollers are not interchangeable: logic poller-and-clock's");
        assertThat(r.summary()).isEqualTo(search(pollerAware, s, false, 1).summary());
        // told the poller, but only to compare it with the lease's owner: interchangeable, as the probe finds
        RelayLogic ownerFenced = UserLogics.all().stream().filter(l -> l.id().equals("hazard-shapes")).findFirst().orElseThrow();
        assertThat(PollerSymmetry.whyNot(new RelayModel(ownerFenced, ReferenceScenarios.leaseRenewal()))).isEmpty();
        // and where the scenario tells pollers apart
        assertThat(PollerSymmetry.whyNot(new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.clockSkew())))
                .isEqualTo("each poller's clock skew is chosen in turn");
        assertThat(PollerSymmetry.whyNot(new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.producerAtomicity())))
                .isEqualTo("one poller");
    }
}
