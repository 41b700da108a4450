package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.variants.EffectBeforeMarker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dedup retention, which rows an ack touches, and an ack or release that matched
 * no row in the model: the steps and outcomes they add, the witnesses their scenarios require, and that
 * logics which do not use them behave exactly as before.
 */
class SettleHazardsTest {

    private static RelayModel model(String logicId, Scenario scenario) {
        return new RelayModel(LogicCatalogue.byId(logicId).orElseThrow(), scenario);
    }

    // ------------------------------------------------------------------ hazard 1: retention

    @Test
    void aMarkerPurgedByPolicyIsNotAMissingMarkerButTheRedeliveryAfterItAppliesTwice() {
        RelayModel m = model("purge-at-ack", ReferenceScenarios.markerRetention());
        ScheduleRunner.Run purged = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Purge(E1)"));
        assertThat(purged.clean()).as("effect without marker, purged by policy: no MARKER_IFF_EFFECT").isTrue();
        assertThat(purged.finalState().consumer().wasPurged("E1")).isTrue();
        assertThat(purged.steps().get(2).outcome()).hasToString(
                "PURGED marker E1 of E1 (written at t=0, purged at t=0 by the retention policy)");

        ScheduleRunner.Run again = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Purge(E1)",
                "LoseAck(p1,E1)", "Tick", "Claim(p2)", "Deliver(p2,E1,t2)"));
        assertThat(again.violations()).extracting(Violation::invariant).contains(Invariant.EFFECT_AT_MOST_ONCE)
                .doesNotContain(Invariant.MARKER_IFF_EFFECT); // the second effect re-wrote the marker
        assertThat(again.violations().get(0).detail()).contains("applied 2 times").contains("purged by the retention policy");
    }

    @Test
    void aMarkerNeverWrittenIsStillAMarkerIffEffectViolation() {
        RelayModel m = new RelayModel(new EffectBeforeMarker(), ReferenceScenarios.markerRetention());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)"));
        assertThat(run.violations()).extracting(Violation::invariant).containsExactly(Invariant.MARKER_IFF_EFFECT);
        assertThat(run.violations().get(0).detail()).contains("never written");
    }

    @Test
    void purgeWaitsForTheRetentionAndOnlyRetentionLogicsGetIt() {
        RelayModel shorter = model("retention-shorter-than-redelivery", ReferenceScenarios.markerRetention());
        RelayState delivered = ScheduleRunner.run(shorter, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)")).finalState();
        assertThat(shorter.enabled(delivered)).noneMatch(s -> s instanceof Step.Purge); // age 0 < retention 1
        RelayState aged = shorter.apply(delivered, new Step.Tick()).state();
        assertThat(shorter.enabled(aged)).contains(new Step.Purge("E1"));

        RelayModel correct = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.markerRetention());
        RelayState c = ScheduleRunner.run(correct, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick")).finalState();
        assertThat(correct.enabled(c)).noneMatch(s -> s instanceof Step.Purge);
    }

    @Test
    void theCorrectLogicSeesTheLateRedeliveryTheScenarioRequires() {
        RelayModel m = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.markerRetention());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "LoseAck(p1,E1)",
                "Tick", "Tick", "Claim(p2)", "Deliver(p2,E1,t2)", "Ack(p2,E1,t2)"));
        assertThat(run.clean()).isTrue();
        assertThat(run.witnesses()).contains(Witness.LATE_REDELIVERY, Witness.DUPLICATE_ABSORBED);
        assertThat(run.steps().get(6).outcome()).isEqualTo(new Outcome.LateDuplicate("E1", 2));
        assertThat(run.steps().get(6).outcome().kind()).isEqualTo("DUPLICATE");
    }

    @Test
    void markersStayUndatedWhereNothingNeedsTheirAge() {
        RelayModel m = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.event61LostAck());
        assertThat(m.datesMarkers()).isFalse();
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,EVENT-61,t1)"));
        assertThat(run.finalState().consumer().markerWrittenAt()).isEmpty();
        assertThat(run.finalState().consumer()).isEqualTo(new ConsumerState(run.finalState().consumer().markers(),
                run.finalState().consumer().stock(), run.finalState().consumer().effects(),
                run.finalState().consumer().appliedOrder()));
    }

    @Test
    void aRetentionLongerThanTheScenarioClockNeverPurges() {
        RelayLogic keepsLong = new CorrectRelayLogic() {
            @Override
            public OptionalInt markerRetention(int leaseTicks) {
                return OptionalInt.of(1_000);
            }
        };
        RelayModel m = new RelayModel(keepsLong, ReferenceScenarios.markerRetention());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "LoseAck(p1,E1)",
                "Tick", "Tick", "Claim(p2)", "Deliver(p2,E1,t2)"));
        assertThat(run.clean()).isTrue();
        assertThat(m.enabled(run.finalState())).noneMatch(s -> s instanceof Step.Purge);
    }

    @Test
    void purgeParsesAndPrints() {
        assertThat(Step.parse("Purge(E1)")).isEqualTo(new Step.Purge("E1"));
        assertThat(new Step.Purge("E1").actor()).isEqualTo("consumer");
        assertThat(new Step.Purge("E1")).hasToString("Purge(E1)");
    }

    // ------------------------------------------------------------------ hazard 2: ack scope

    @Test
    void anAckMidBatchIsReportedWhereTheScenarioAsksAndTouchesOnlyItsRow() {
        RelayModel m = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.batchAck());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"));
        assertThat(run.clean()).isTrue();
        assertThat(run.witnesses()).contains(Witness.ACK_MID_BATCH);
        assertThat(run.steps().get(2).outcome()).isEqualTo(new Outcome.AckedMidBatch("E1", 1, List.of("E2"), List.of()));
        assertThat(run.finalState().row("E2").orElseThrow().status()).isEqualTo(RowStatus.PENDING);
    }

    @Test
    void aBatchWideAckMarksTheUndeliveredRowAndACrashLosesIt() {
        RelayModel m = model("batch-ack-whole-batch", ReferenceScenarios.batchAck());
        ScheduleRunner.Run run = ScheduleRunner.runLenient(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"));
        assertThat(run.steps().get(2).outcome()).isEqualTo(new Outcome.AckedMidBatch("E1", 1, List.of("E2"), List.of("E2")));
        assertThat(run.violations()).extracting(Violation::invariant).containsExactly(Invariant.NO_LOST_EVENT);
        assertThat(run.violations().get(0).detail()).contains("E2 is DELIVERED but its effect was never applied");
    }

    @Test
    void anAckByOwnerIsExpressibleAndAlsoCaught() {
        RelayLogic byOwner = new CorrectRelayLogic() {
            @Override
            public List<String> rowsAckTouches(OutboxRow acked, long token, String poller, List<Held> batch,
                                               List<OutboxRow> outbox) {
                return outbox.stream().filter(r -> r.hasLease() && r.lease().owner().equals(poller)).map(OutboxRow::id).toList();
            }
        };
        RelayModel m = new RelayModel(byOwner, ReferenceScenarios.batchAck());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"));
        assertThat(run.broke(Invariant.NO_LOST_EVENT)).isTrue();
    }

    // ------------------------------------------------------------------ hazard 6: unmatched ack or release

    @Test
    void anUnmatchedAckAndReleaseAreWitnessedAndTheCorrectPollerKnowsTheyDidNotApply() {
        RelayModel m = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.unmatchedSettle());
        ScheduleRunner.Run ack = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Tick", "Claim(p2)",
                "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"));
        assertThat(ack.clean()).isTrue();
        assertThat(ack.steps().get(4).outcome()).isEqualTo(new Outcome.Unmatched("ack", "E1", 1, 2, false));
        assertThat(ack.witnesses()).contains(Witness.UNMATCHED_ACK, Witness.STALE_ACK);
        assertThat(ack.finalState().row("E1").orElseThrow().lease().token()).isEqualTo(2);

        ScheduleRunner.Run release = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "DeliverFails(p1,E1)", "Tick",
                "Claim(p2)", "Release(p1,E1,t1)"));
        assertThat(release.clean()).isTrue();
        assertThat(release.witnesses()).contains(Witness.UNMATCHED_RELEASE);
    }

    @Test
    void aPollerThatIgnoresTheResultWipesItsSuccessorsLease() {
        RelayModel m = model("ignores-settle-result", ReferenceScenarios.unmatchedSettle());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Tick", "Claim(p2)",
                "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"));
        assertThat(run.steps().get(4).outcome()).isEqualTo(new Outcome.Unmatched("ack", "E1", 1, 2, true));
        assertThat(run.violations()).extracting(Violation::invariant).containsExactly(Invariant.STALE_ACK_REJECTED);
        assertThat(run.finalState().row("E1").orElseThrow().hasLease()).isFalse();
    }

    @Test
    void unlockingAfterSettlingIsHarmlessForAPollerThatReadsTheResult() {
        RelayLogic heeds = new CorrectRelayLogic() {
            @Override
            public boolean unlocksAfterSettling() {
                return true;
            }
        };
        RelayModel m = new RelayModel(heeds, ReferenceScenarios.unmatchedSettle());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Tick", "Claim(p2)",
                "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)", "Deliver(p2,E1,t2)", "Ack(p2,E1,t2)"));
        assertThat(run.clean()).isTrue();
        assertThat(run.steps().get(4).outcome()).isEqualTo(new Outcome.Unmatched("ack", "E1", 1, 2, false));
    }

    @Test
    void elsewhereAnUnmatchedAckIsStillThePlainStaleOutcome() {
        RelayModel m = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.staleAckAfterExpiry());
        ScheduleRunner.Run run = ScheduleRunner.run(m, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick",
                "Claim(p2)", "Ack(p1,E1,t1)"));
        assertThat(run.steps().get(5).outcome()).isEqualTo(new Outcome.Stale("E1", 1, 2));
    }
}
