package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.packed.SeededWalks.Applied;
import dev.relaycheck.checker.space.Successors;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search skips looking up a successor when footprints say it is stored, so what they say must hold. On
 * seeded walks through every reference scenario under every logic, shipped or a user's, for every state s, step b from it
 * breaking nothing, and step a from u = s.b that footprints call known stored: a is listed before b in s, so
 * s.a was found before u; b is enabled in s.a; and s.a.b is u.a, reached with the same outcomes. (The
 * exhaustive counts in {@link PackedAgreementTest} catch a wrong skip only where it loses a state.)
 */
class StepFootprintTest {
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("dev.relaycheck.checker.packed.PackedAgreementTest#logicsAndScenarios")
    void aSuccessorKnownStoredWasFoundBefore(RelayLogic logic, Scenario scenario) {
        checkKnownStored(logic, scenario, PackedAgreementTest.packedModel(logic, scenario));
    }

    /** The same with tokens renumbered after each step: two steps that commute still end in one state. */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("dev.relaycheck.checker.packed.PackedAgreementTest#renumberableLogicsAndScenarios")
    void renumberedASuccessorKnownStoredWasFoundBefore(RelayLogic logic, Scenario scenario) {
        checkKnownStored(logic, scenario, PackedAgreementTest.renumberingModel(logic, scenario));
    }

    private static void checkKnownStored(RelayLogic logic, Scenario scenario, PackedModel model) {
        PackedLogic packedLogic = PackedLogic.of(logic).orElse(null); // null: a user's logic, through the tables
        StepFootprint footprints = model.footprints();
        int[] known = {0};
        SeededWalks.forEachStep(model, scenario.name().hashCode() * 31L + logic.id().hashCode(), (s, fromS, b, u, where) -> {
            long cameBy = footprints.of(model.footprintStep(footprints, s, b));
            for (int a : SeededWalks.enabled(model, u.state())) {
                Applied ua = SeededWalks.apply(model, u.state(), a);
                if (ua.result() != Successors.BREAKS_STATE
                        && StepFootprint.knownStored(footprints.of(model.footprintStep(footprints, u.state(), a)), cameBy) != 0) {
                    assertFoundBefore(model, s, fromS, a, b, ua, logic.id() + "/" + scenario.name() + " " + where);
                    known[0]++;
                }
            }
        });
        // a variant's walks may stop at its first delivery, too soon for any; with the outbox cleanup none is known
        if (packedLogic == PackedLogic.CORRECT && !scenario.cleanup()) {
            assertThat(known[0]).as("successors known stored, " + logic.id() + "/" + scenario.name()).isPositive();
        }
    }

    /** That s.a is listed before u = s.b, and that s.a.b is u.a: {@code ua}, with the same outcomes. */
    private static void assertFoundBefore(PackedModel model, int[] s, int[] fromS, int a, int b, Applied ua, String where) {
        String what = "step " + a + " after step " + b + ", " + where;
        List<Integer> listed = Arrays.stream(fromS).boxed().toList();
        assertThat(listed.indexOf(a)).as("listed before: " + what).isBetween(0, listed.indexOf(b) - 1);
        Applied sa = SeededWalks.apply(model, s, a);
        assertThat(sa.outcome()).as("outcome of step " + a + " before and after step " + b + ", " + where).isEqualTo(ua.outcome());
        assertThat(SeededWalks.enabled(model, sa.state())).as("enabled after step " + a + ", " + where).contains(b);
        Applied sab = SeededWalks.apply(model, sa.state(), b);
        assertThat(sab.outcome()).as("outcome of step " + b + " before and after step " + a + ", " + where)
                .isEqualTo(SeededWalks.apply(model, s, b).outcome());
        assertThat(sab.state()).as("the state both orders end in: " + what).isEqualTo(ua.state());
    }
}
