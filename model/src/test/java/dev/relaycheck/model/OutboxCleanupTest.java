package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.variants.BrokenVariant;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox cleanup job in the model: a Cleanup step between the relay's transactions deletes the rows the logic's
 * purge takes. The reference purge takes only DELIVERED rows and loses nothing; one that also takes a leased row
 * loses the event once the poller holding it crashes or fails, and only then (a poller that still delivers it is
 * not a loss).
 */
class OutboxCleanupTest {

    private static RelayModel model(String logicId) {
        return new RelayModel(LogicCatalogue.byId(logicId).orElseThrow(), ReferenceScenarios.outboxCleanup());
    }

    @Test
    void theReferencePurgeTakesOnlyDeliveredRowsAndTheRunStillCompletes() {
        RelayModel m = model("correct");
        RelayState leased = ScheduleRunner.run(m, Schedules.of("Claim(p1)")).finalState();
        assertThat(m.enabled(leased)).as("nothing DELIVERED yet: the job would delete nothing").doesNotContain(new Step.Cleanup());

        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)",
                "Claim(p1)", "Cleanup"));
        assertThat(run.clean()).isTrue();
        assertThat(run.steps().get(4).outcome()).hasToString("CLEANED_UP at t=0: deleted E1:DELIVERED");
        assertThat(run.witnesses()).contains(Witness.ROW_CLEANED_UP);
        RelayState s = run.finalState();
        assertThat(s.row("E1")).isEmpty();
        assertThat(s.row("E2")).isPresent();
        assertThat(s.surroundings().cleanedUp()).containsOnlyKeys("E1");
        assertThat(Healing.check(m, s)).isEmpty();
    }

    @Test
    void aPurgeOfALeasedRowLosesTheEventWhenThePollerHoldingItCrashes() {
        ScheduleRunner.Run run = ScheduleRunner.run(model("cleanup-deletes-in-flight"),
                Schedules.of("Claim(p1)", "Cleanup", "Crash(p1)"));
        assertThat(run.steps().get(1).outcome()).hasToString("CLEANED_UP at t=0: deleted E1:PENDING[p1/t1/exp2]");
        assertThat(run.steps().get(1).violations()).as("p1 still holds E1: not lost yet").isEmpty();
        assertThat(run.violations()).extracting(Violation::invariant).containsExactly(Invariant.NO_LOST_EVENT);
        assertThat(run.violations().get(0).detail()).isEqualTo("E1 was deleted by the outbox cleanup (Cleanup) while "
                + "PENDING, leased to p1 until t=2, before its effect was applied, and no poller holds it any more: the event is lost");
    }

    @Test
    void aFailedDeliveryOfADeletedRowReleasesNothingAndLosesTheEvent() {
        ScheduleRunner.Run run = ScheduleRunner.run(model("cleanup-deletes-in-flight"),
                Schedules.of("Claim(p1)", "Cleanup", "DeliverFails(p1,E1)", "Release(p1,E1,t1)"));
        assertThat(run.steps().get(3).outcome()).hasToString("STALE E1/t1 (row deleted)");
        assertThat(run.violations()).extracting(Violation::invariant).containsExactly(Invariant.NO_LOST_EVENT);
    }

    @Test
    void aPollerThatStillDeliversADeletedRowLosesNothing() {
        RelayModel m = model("cleanup-deletes-in-flight");
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Cleanup", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"));
        assertThat(run.clean()).isTrue();
        assertThat(run.steps().get(3).outcome()).hasToString("STALE E1/t1 (row deleted)");
        assertThat(Invariants.isComplete(m.scenario(), ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Cleanup",
                "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)", "Claim(p1)", "Deliver(p1,E2,t2)", "Ack(p1,E2,t2)")).finalState())).isTrue();
        assertThat(Healing.check(m, run.finalState())).isEmpty();
    }

    @Test
    void withoutTheLostEventCheckHealingReportsWhyTheEventNeverArrives() {
        RelayModel m = model("cleanup-deletes-in-flight");
        RelayState lost = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Cleanup", "Crash(p1)")).finalState();
        assertThat(Invariants.whyIncomplete(m.scenario(), lost)).isEqualTo("E1 was deleted by the outbox cleanup while "
                + "PENDING, leased to p1 until t=2, and its effect was never applied; E2 is still PENDING");
        Optional<Violation> healed = Healing.check(m, lost);
        assertThat(healed).map(Violation::invariant).contains(Invariant.NO_LOST_EVENT); // the state itself is judged first
    }

    @Test
    void onlyAScenarioWithTheCleanupOffersItAndTheVariantIsTheReferenceElsewhere() {
        RelayLogic v = LogicCatalogue.byId("cleanup-deletes-in-flight").orElseThrow();
        assertThat(((BrokenVariant) v).exercisedBy(ReferenceScenarios.outboxCleanup())).isTrue();
        assertThat(((BrokenVariant) v).exercisedBy(ReferenceScenarios.crashRestart())).isFalse();
        RelayModel without = new RelayModel(v, ReferenceScenarios.crashRestart());
        RelayState leased = ScheduleRunner.run(without, Schedules.of("Claim(p1)")).finalState();
        assertThat(without.enabled(leased)).noneMatch(s -> s instanceof Step.Cleanup);
        assertThat(RelayState.initial(ReferenceScenarios.crashRestart()).surroundings().isNone()).isTrue();
    }

    @Test
    void aCheckThenActClaimWhoseRowsWereDeletedInBetweenLeasesNothing() {
        RelayLogic twoStep = new CorrectRelayLogic() {
            @Override
            public ClaimShape claimShape() {
                return ClaimShape.CHECK_THEN_ACT;
            }

            @Override
            public boolean cleanupTakes(OutboxRow row, int now) {
                return true; // every row, PENDING included
            }
        };
        RelayModel m = new RelayModel(twoStep, ReferenceScenarios.outboxCleanup());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Cleanup"));
        assertThat(run.violations()).as("a claim that only read E1 does not hold it").extracting(Violation::invariant)
                .containsExactly(Invariant.NO_LOST_EVENT, Invariant.NO_LOST_EVENT);
        StepResult write = m.apply(run.finalState(), new Step.Claim("p1"));
        assertThat(write.outcome()).hasToString("CLAIMED []");
        assertThat(write.state().poller(0).isIdle()).isTrue();
    }

    @Test
    void theStepAndTheScenarioKeyReadBackAsWritten() {
        assertThat(Step.parse("Cleanup")).isEqualTo(new Step.Cleanup());
        assertThat(new Step.Cleanup().actor()).isEqualTo("cleanup");
        assertThat(new Step.Cleanup()).hasToString("Cleanup");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Step.parse("Cleanup(E1)"))
                .hasMessage("Cleanup takes no arguments: 'Cleanup(E1)'");
        String text = ScenarioText.write(ReferenceScenarios.outboxCleanup());
        assertThat(text).contains("cleanup true\n");
        assertThat(ScenarioText.parse(text, "outbox-cleanup")).isEqualTo(ReferenceScenarios.outboxCleanup());
        assertThat(ScenarioText.write(ReferenceScenarios.crashRestart())).doesNotContain("cleanup");
    }
}
