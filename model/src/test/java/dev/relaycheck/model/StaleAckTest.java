package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StaleAckTest {

    @Test
    void lateAckWithExpiredTokenIsStaleAndChangesNothing() {
        RelayModel model = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.staleAckAfterExpiry());
        ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                "Claim(p1)", "Deliver(p1,E1,t1)", // A claims t1, delivers, then stalls
                "Tick", "Tick",                    // its lease expires
                "Claim(p2)", "Deliver(p2,E1,t2)", "Ack(p2,E1,t2)",
                "Ack(p1,E1,t1)"));                 // A wakes up and acks with t1

        assertThat(run.clean()).as("violations %s", run.violations()).isTrue();
        ScheduleRunner.Executed late = run.steps().get(7);
        assertThat(late.outcome()).isEqualTo(new Outcome.Stale("E1", 1, -1));
        RelayState before = run.steps().get(6).after();
        assertThat(late.after().rows()).isEqualTo(before.rows());
        assertThat(late.after().consumer()).isEqualTo(before.consumer());
        assertThat(run.witnesses()).contains(Witness.STALE_ACK, Witness.LEASE_RECLAIMED, Witness.DUPLICATE_ABSORBED);
    }

    @Test
    void lateAckWhileSuccessorHoldsTheRowIsStale() {
        RelayModel model = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.staleAckAfterExpiry());
        ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                "Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick", "Claim(p2)", "Ack(p1,E1,t1)"));
        assertThat(run.steps().get(5).outcome()).isEqualTo(new Outcome.Stale("E1", 1, 2));
        assertThat(run.finalState().row("E1").orElseThrow().lease().owner()).isEqualTo("p2");
    }

    @Test
    void ackAfterExpiryIsAcceptedWhileNobodyReclaimed() {
        // fencing is by token, not by time
        RelayModel model = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.staleAckAfterExpiry());
        ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                "Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick", "Tick", "Ack(p1,E1,t1)"));
        assertThat(run.steps().get(5).outcome()).isEqualTo(new Outcome.Acked("E1", 1));
        assertThat(run.clean()).isTrue();
    }
}
