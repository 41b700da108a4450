package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.packed.SeededWalks.Applied;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search takes a route's word for what a step shows and for where a crash leads, instead of taking the
 * step, so a route must keep what it is given, and the two rules that set its crash bits must hold: on
 * seeded walks through every reference scenario under every logic, shipped or a user's, for every state s, step c from it
 * breaking nothing, u = s.c, and poller p whose crash u enables:
 * <ul>
 *   <li>where c wrote only p's slots, and p was busy in s, s enables the crash of p too, and it leads where
 *       the crash from u leads;
 *   <li>where s enables the crash of p and c touches nothing of p (its footprint), c is enabled after that
 *       crash, shows the same there, and leads where the crash from u leads.
 * </ul>
 * (The exhaustive counts in {@link PackedAgreementTest} catch a wrong skip only where it loses a state.)
 */
class RouteTest {
    private static final int MAX_STEP = 31 << 8 | StepKinds.DELIVER_FAILS_STEP << 4 | 15; // event 31, last kind, poller 15

    @Test
    void aRouteKeepsItsStepWhatEachOfItsFirstPlacesShowedAndItsCrashBits() {
        int[] shown = {0, 1, 2, 4, 8}; // none, or one witness
        for (int place = 0; place <= 15; place++) {
            long footprint = (long) place << 56; // the place's bits of a footprint
            long other = (long) (place + 1) % 15 << 56;
            for (int w : shown) {
                long route = Route.of(MAX_STEP, Route.outcome(other, 2) | Route.outcome(footprint, w), 0b101101);
                assertThat(Route.step(route)).isEqualTo(MAX_STEP);
                assertThat(Route.crashKnown(route)).isEqualTo(0b101101);
                assertThat(Route.witnessesBefore(route, footprint)).as("place " + place + ", witnesses " + w)
                        .isEqualTo(place < 15 ? w : -1);
                assertThat(Route.witnessesBefore(route, other)).isEqualTo(2);
                assertThat(Route.witnessesBefore(route, StepFootprint.UNKNOWN)).isEqualTo(-1);
            }
            assertThat(Route.witnessesBefore(Route.of(MAX_STEP, 0, 0), footprint)).isEqualTo(-1);
        }
        assertThat(Route.step(Route.of(StepFootprint.NO_STEP, 0, 0))).isEqualTo(StepFootprint.NO_STEP);
        assertThat(Route.crashKnown(Route.of(0, 0, 0b1111111))).as("bits for 6 pollers").isEqualTo(0b111111);
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("dev.relaycheck.checker.packed.PackedAgreementTest#logicsAndScenarios")
    void aCrashTheRouteKnowsLeadsWhereTheRulesSay(RelayLogic logic, Scenario scenario) {
        checkCrashRules(logic, scenario, PackedAgreementTest.packedModel(logic, scenario));
    }

    /** The same with tokens renumbered after each step. */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("dev.relaycheck.checker.packed.PackedAgreementTest#renumberableLogicsAndScenarios")
    void renumberedACrashTheRouteKnowsLeadsWhereTheRulesSay(RelayLogic logic, Scenario scenario) {
        checkCrashRules(logic, scenario, PackedAgreementTest.renumberingModel(logic, scenario));
    }

    private static void checkCrashRules(RelayLogic logic, Scenario scenario, PackedModel model) {
        PackedLogic packedLogic = PackedLogic.of(logic).orElse(null); // null: a user's logic, through the tables
        StepFootprint footprints = model.footprints();
        int[] seen = {0, 0}; // cases of each rule
        SeededWalks.forEachStep(model, scenario.name().hashCode() * 17L + logic.id().hashCode(), (s, fromS, c, u, where) -> {
            String at = logic.id() + "/" + scenario.name() + " step " + c + ", " + where;
            for (int p = 0; p < model.at.pollers; p++) {
                int crash = StepKinds.CRASH << 4 | p;
                if (!contains(SeededWalks.enabled(model, u.state()), crash)) {
                    continue;
                }
                int[] crashedFromU = SeededWalks.apply(model, u.state(), crash).state();
                boolean busy = s[model.at.poller(p) + PackedLayout.PHASE] != PackedModel.IDLE;
                if (busy && u.onlyPoller() == p) {
                    assertThat(fromS).as("a crash of " + p + " enabled before " + at).contains(crash);
                    assertThat(SeededWalks.apply(model, s, crash).state()).as("where a crash of " + p + " leads before and after " + at)
                            .isEqualTo(crashedFromU);
                    seen[0]++;
                }
                if (contains(fromS, crash) && (footprints.pollersTouched(footprints.of(model.footprintStep(footprints, s, c))) >>> p & 1) == 0) {
                    int[] crashed = SeededWalks.apply(model, s, crash).state();
                    assertThat(SeededWalks.enabled(model, crashed)).as("enabled after a crash of " + p + ": " + at).contains(c);
                    Applied after = SeededWalks.apply(model, crashed, c);
                    assertThat(after.outcome()).as("outcome after a crash of " + p + ": " + at).isEqualTo(u.outcome());
                    assertThat(after.state()).as("where " + at + " leads after a crash of " + p).isEqualTo(crashedFromU);
                    seen[1]++;
                }
            }
        });
        boolean known = packedLogic == PackedLogic.CORRECT && model.footprints().crashesBreakNothing(); // not with the cleanup
        if (known && scenario.maxCrashes() > 0) {
            assertThat(seen[1]).as("crashes after a step touching nothing of the poller, " + scenario.name()).isPositive();
        }
        if (known && scenario.maxCrashes() > 0 && scenario.maxLostAcks() > 0) {
            assertThat(seen[0]).as("crashes after a step writing only the poller's slots, " + scenario.name()).isPositive();
        }
    }

    private static boolean contains(int[] steps, int step) {
        for (int s : steps) {
            if (s == step) {
                return true;
            }
        }
        return false;
    }
}
