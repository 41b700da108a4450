package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.Successors;
import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The search skips looking up a successor when footprints say it is stored, so what they say must hold. On
 * seeded walks through every reference scenario under every known logic, for every state s, step b from it
 * breaking nothing, and step a from u = s.b that footprints call known stored: a is listed before b in s, so
 * s.a was found before u; b is enabled in s.a; and s.a.b is u.a, reached with the same outcomes. (The
 * exhaustive counts in {@link PackedAgreementTest} catch a wrong skip only where it loses a state.)
 */
class StepFootprintTest {
    private static final int WALKS = 8;
    private static final int DEPTH = 60;

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("dev.relaycheck.checker.packed.PackedAgreementTest#logicsAndScenarios")
    void aSuccessorKnownStoredWasFoundBefore(RelayLogic logic, Scenario scenario) {
        PackedLogic packedLogic = PackedLogic.of(logic).orElseThrow();
        PackedModel model = new PackedModel(scenario, packedLogic);
        StepFootprint footprints = new StepFootprint(scenario, packedLogic, model.at);
        SplitMix64 random = new SplitMix64(scenario.name().hashCode() * 31L + logic.id().hashCode());
        int known = 0;
        for (int walk = 0; walk < WALKS; walk++) {
            int[] s = model.initial();
            for (int depth = 0; depth < DEPTH && s != null; depth++) {
                int[] fromS = enabled(model, s);
                for (int b : fromS) {
                    Applied u = apply(model, s, b);
                    if (u.result != Successors.NONE) {
                        continue; // the search expands u only if reaching it broke nothing
                    }
                    long cameBy = footprints.of(footprints.step(s, b));
                    for (int a : enabled(model, u.state)) {
                        Applied ua = apply(model, u.state, a);
                        if (ua.result != Successors.BREAKS_STATE
                                && StepFootprint.knownStored(footprints.of(footprints.step(u.state, a)), cameBy) != 0) {
                            assertFoundBefore(model, s, fromS, a, b, ua, logic.id() + "/" + scenario.name() + " walk "
                                    + walk + " depth " + depth + " in " + Arrays.toString(s));
                            known++;
                        }
                    }
                }
                s = next(model, s, fromS, random);
            }
        }
        if (packedLogic == PackedLogic.CORRECT) { // a variant's walks may stop at its first delivery, too soon for any
            assertThat(known).as("successors known stored, " + logic.id() + "/" + scenario.name()).isPositive();
        }
    }

    /**
     * A route keeps its step, and what each of the first 16 places showed: the search takes its word for a
     * step's witnesses instead of taking the step.
     */
    @Test
    void aRouteKeepsItsStepAndWhatEachOfItsFirstPlacesShowed() {
        int[] shown = {0, 1, 2, 4, 8}; // none, or one witness
        for (int place = 0; place <= 16; place++) {
            long footprint = (long) place << 56; // the place's bits of a footprint
            long other = (long) (place + 1) % 16 << 56;
            for (int w : shown) {
                long route = StepFootprint.route(0x1F37, StepFootprint.outcome(other, 2) | StepFootprint.outcome(footprint, w));
                assertThat(StepFootprint.stepOf(route)).isEqualTo(0x1F37);
                assertThat(StepFootprint.witnessesBefore(route, footprint)).as("place " + place + ", witnesses " + w)
                        .isEqualTo(place < 16 ? w : -1);
                assertThat(StepFootprint.witnessesBefore(route, other)).isEqualTo(2);
                assertThat(StepFootprint.witnessesBefore(route, StepFootprint.UNKNOWN)).isEqualTo(-1);
            }
            assertThat(StepFootprint.witnessesBefore(StepFootprint.route(0x1F37, 0), footprint)).isEqualTo(-1);
        }
        assertThat(StepFootprint.stepOf(StepFootprint.route(StepFootprint.NO_STEP, 0))).isEqualTo(StepFootprint.NO_STEP);
    }

    /** That s.a is listed before u = s.b, and that s.a.b is u.a: {@code ua}, with the same outcomes. */
    private static void assertFoundBefore(PackedModel model, int[] s, int[] fromS, int a, int b, Applied ua, String where) {
        String what = "step " + a + " after step " + b + ", " + where;
        List<Integer> listed = Arrays.stream(fromS).boxed().toList();
        assertThat(listed.indexOf(a)).as("listed before: " + what).isBetween(0, listed.indexOf(b) - 1);
        Applied sa = apply(model, s, a);
        assertThat(sa.outcome).as("outcome of step " + a + " before and after step " + b + ", " + where).isEqualTo(ua.outcome);
        assertThat(enabled(model, sa.state)).as("enabled after step " + a + ", " + where).contains(b);
        Applied sab = apply(model, sa.state, b);
        assertThat(sab.outcome).as("outcome of step " + b + " before and after step " + a + ", " + where)
                .isEqualTo(apply(model, s, b).outcome);
        assertThat(sab.state).as("the state both orders end in: " + what).isEqualTo(ua.state);
    }

    /** The walk's next state: one of the successors breaking nothing, picked at random; null if none. */
    private static int[] next(PackedModel model, int[] s, int[] steps, SplitMix64 random) {
        int[] clean = Arrays.stream(steps).filter(step -> apply(model, s, step).result == Successors.NONE).toArray();
        return clean.length == 0 ? null : apply(model, s, clean[random.nextInt(clean.length)]).state;
    }

    private static int[] enabled(PackedModel model, int[] s) {
        int[] steps = new int[PackedModel.maxSteps(model.at.pollers)];
        return Arrays.copyOf(steps, model.enabled(s, steps, false));
    }

    private record Applied(int[] state, int outcome, byte result) {
    }

    private static Applied apply(PackedModel model, int[] s, int step) {
        int[] t = s.clone();
        int outcome = model.apply(t, step, model.at.encode(s), 0);
        return new Applied(t, outcome, PackedModel.breaks(outcome));
    }
}
