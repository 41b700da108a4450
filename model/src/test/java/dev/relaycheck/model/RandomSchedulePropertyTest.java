package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Many seeded random schedules: the correct logic never breaks a safety invariant and always heals. */
class RandomSchedulePropertyTest {

    @Test
    void correctLogicSurvivesSeededRandomSchedulesOnEveryReferenceScenario() {
        Set<Witness> seen = EnumSet.noneOf(Witness.class);
        for (Scenario scenario : ReferenceScenarios.all()) {
            RelayModel model = new RelayModel(LogicCatalogue.correct(), scenario);
            for (int run = 0; run < 300; run++) {
                long seed = SplitMix64.derive(42, run);
                List<Step> schedule = randomSchedule(model, seed, 60);
                ScheduleRunner.Run r = ScheduleRunner.run(model, schedule);
                assertThat(r.violations()).as("%s seed %d: %s", scenario.name(), seed, schedule).isEmpty();
                Optional<Violation> healing = Healing.check(model, r.finalState());
                assertThat(healing).as("%s seed %d: %s", scenario.name(), seed, schedule).isEmpty();
                seen.addAll(r.witnesses());
            }
        }
        assertThat(seen).as("the random schedules must reach the interesting outcomes").containsAll(EnumSet.allOf(Witness.class));
    }

    @Test
    void sameSeedSameSchedule() {
        RelayModel model = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.mixed());
        assertThat(randomSchedule(model, 7, 60)).isEqualTo(randomSchedule(model, 7, 60));
        assertThat(randomSchedule(model, 7, 60)).isNotEqualTo(randomSchedule(model, 8, 60));
    }

    @Test
    void splitMixIsTheDocumentedAlgorithm() {
        // reference values of SplitMix64 seeded with 0 (as published with the algorithm)
        SplitMix64 r = new SplitMix64(0);
        assertThat(r.nextLong()).isEqualTo(0xE220A8397B1DCDAFL);
        assertThat(r.nextLong()).isEqualTo(0x6E789E6AA1B965F4L);
    }

    static List<Step> randomSchedule(RelayModel model, long seed, int maxLength) {
        return RandomSchedules.walk(model, seed, maxLength);
    }
}
