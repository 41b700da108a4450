package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The five dimensions of outbox testing, each a group, on the correct logic. */
class OutboxDimensionsTest {

    private static final RelayLogic CORRECT = LogicCatalogue.correct();

    @Nested
    class Atomicity {
        private final RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.producerAtomicity());

        @Test
        void businessWriteAndOutboxRowCommitTogether() {
            StepResult r = model.apply(model.initial(), Step.parse("Produce(E1)"));
            assertThat(r.state().businessWrites()).containsExactly("E1");
            assertThat(r.state().rows()).extracting(OutboxRow::id).containsExactly("E1");
        }

        @Test
        void aFailedProduceRollsBackBoth() {
            StepResult r = model.apply(model.initial(), Step.parse("ProduceFails(E1)"));
            assertThat(r.state().businessWrites()).isEmpty();
            assertThat(r.state().rows()).isEmpty();
            assertThat(r.outcome()).isEqualTo(new Outcome.ProduceFailed("E1", false));
            assertThat(Invariants.checkState(model.scenario(), r.state())).isEmpty();
        }

        @Test
        void splitProducerLeavesABusinessWriteWithoutItsRow() {
            RelayModel split = new RelayModel(LogicCatalogue.byId("outbox-outside-transaction").orElseThrow(),
                    ReferenceScenarios.producerAtomicity());
            ScheduleRunner.Run run = ScheduleRunner.run(split, Schedules.of("Produce(E1)"));
            assertThat(run.broke(Invariant.PRODUCE_ATOMIC)).isTrue();
        }
    }

    @Nested
    class RelayPublishing {
        private final RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.doubleClaim());

        @Test
        void pendingRowsAreClaimedAndDelivered() {
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                    "Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)", "Claim(p2)", "Deliver(p2,E2,t2)", "Ack(p2,E2,t2)"));
            assertThat(run.clean()).isTrue();
            assertThat(run.finalState().rows()).allMatch(r -> r.status() == RowStatus.DELIVERED);
        }

        @Test
        void deliveredRowsAreNeverClaimedAgain() {
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                    "Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)", "Tick", "Tick"));
            assertThat(RelayTransactions.claimableIds(CORRECT, run.finalState(), 5, "p1")).containsExactly("E2");
        }

        @Test
        void aLiveLeaseKeepsOtherPollersAway() {
            RelayState s = model.apply(model.initial(), Step.parse("Claim(p1)")).state();
            assertThat(RelayTransactions.claimableIds(CORRECT, s, 5, "p1")).containsExactly("E2");
        }
    }

    @Nested
    class AtLeastOnceWithDedupByEventId {
        @Test
        void equalPayloadsOfDifferentEventsBothApply() {
            RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.aggregateOrder());
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                    "Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)", "Claim(p1)", "Deliver(p1,E2,t2)"));
            assertThat(run.steps().get(4).outcome()).isEqualTo(new Outcome.Applied("E2"));
            assertThat(run.finalState().consumer().stock()).containsEntry("SKU-1", 6);
        }

        @Test
        void redeliveryOfTheSameEventIsAbsorbed() {
            RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.event61LostAck());
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                    "Claim(p1)", "Deliver(p1,EVENT-61,t1)", "LoseAck(p1,EVENT-61)", "Tick", "Tick", "Claim(p1)",
                    "Deliver(p1,EVENT-61,t2)"));
            assertThat(run.steps().get(6).outcome()).isEqualTo(new Outcome.Duplicate("EVENT-61"));
            assertThat(run.finalState().consumer().effectCount("EVENT-61")).isEqualTo(1);
        }
    }

    @Nested
    class PerAggregateOrder {
        @Test
        void laterEventOfAnAggregateWaitsForTheEarlierOne() {
            RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.aggregateOrder());
            RelayState s = model.apply(model.initial(), Step.parse("Claim(p1)")).state();
            // E2 (SKU-1, seq 2) is not claimable while E1 is PENDING; E3 (SKU-2) is
            assertThat(RelayTransactions.claimableIds(CORRECT, s, 5, "p1")).containsExactly("E3");
        }

        @Test
        void effectsLandInSequenceOrderPerAggregate() {
            RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.aggregateOrder());
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                    "Claim(p1)", "Claim(p2)", "Deliver(p2,E3,t2)", "Ack(p2,E3,t2)", "Deliver(p1,E1,t1)",
                    "Ack(p1,E1,t1)", "Claim(p2)", "Deliver(p2,E2,t3)", "Ack(p2,E2,t3)"));
            assertThat(run.clean()).isTrue();
            assertThat(run.finalState().consumer().appliedOrder()).containsEntry("SKU-1", List.of(1, 2));
        }
    }

    @Nested
    class CrashAndRetry {
        @Test
        void crashedPollersBatchIsDeliveredByAnotherAfterExpiry() {
            RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.crashRestart());
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                    "Claim(p1)", "Deliver(p1,E1,t1)", "Crash(p1)", "Tick", "Tick", "Claim(p2)",
                    "Deliver(p2,E1,t3)", "Ack(p2,E1,t3)", "Deliver(p2,E2,t4)", "Ack(p2,E2,t4)"));
            assertThat(run.clean()).as("%s", run.violations()).isTrue();
            assertThat(run.steps().get(6).outcome()).isEqualTo(new Outcome.Duplicate("E1"));
            assertThat(Invariants.isComplete(model.scenario(), run.finalState())).isTrue();
        }

        @Test
        void failedDeliveryIsReleasedAndRetried() {
            RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.producerAtomicity());
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                    "Produce(E1)", "Claim(p1)", "DeliverFails(p1,E1)", "Release(p1,E1,t1)", "Claim(p1)",
                    "Deliver(p1,E1,t2)", "Ack(p1,E1,t2)"));
            assertThat(run.clean()).isTrue();
            assertThat(run.witnesses()).contains(Witness.DELIVERY_RETRIED);
            assertThat(run.finalState().consumer().effectCount("E1")).isEqualTo(1);
        }

        @Test
        void healingCompletesFromAMidRunCrash() {
            RelayModel model = new RelayModel(CORRECT, ReferenceScenarios.crashRestart());
            ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of("Claim(p1)", "Deliver(p1,E1,t1)", "Crash(p1)"));
            assertThat(Healing.check(model, run.finalState())).isEmpty();
        }
    }
}
