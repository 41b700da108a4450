package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** the reference case (docs/model.md): EVENT-61, 4 units of SKU-29, stock 10, the acknowledgement lost. */
class ReferenceCaseTest {

    @Test
    void event61LostAckIsRedeliveredAbsorbedAndAcknowledged() {
        RelayModel model = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.event61LostAck());
        ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                "Claim(p1)", "Deliver(p1,EVENT-61,t1)", "LoseAck(p1,EVENT-61)",
                "Tick", "Tick", "Claim(p2)", "Deliver(p2,EVENT-61,t2)", "Ack(p2,EVENT-61,t2)"));

        assertThat(run.clean()).as("violations %s", run.violations()).isTrue();
        assertThat(run.steps().get(1).outcome()).isEqualTo(new Outcome.Applied("EVENT-61"));
        // the consumer committed (marker + stock 10 -> 6) but the row stays PENDING
        RelayState afterLostAck = run.steps().get(2).after();
        assertThat(afterLostAck.row("EVENT-61").orElseThrow().status()).isEqualTo(RowStatus.PENDING);
        assertThat(afterLostAck.consumer().stock()).containsEntry("SKU-29", 6);
        // redelivery is answered DUPLICATE without touching stock, then the ack lands
        assertThat(run.steps().get(6).outcome()).isEqualTo(new Outcome.Duplicate("EVENT-61"));
        assertThat(run.steps().get(7).outcome()).isEqualTo(new Outcome.Acked("EVENT-61", 2));

        RelayState end = run.finalState();
        assertThat(end.row("EVENT-61").orElseThrow().status()).isEqualTo(RowStatus.DELIVERED);
        assertThat(end.consumer().markerCountFor("EVENT-61")).isEqualTo(1);
        assertThat(end.consumer().stock()).containsEntry("SKU-29", 6);
        assertThat(Invariants.isComplete(model.scenario(), end)).isTrue();
        assertThat(run.witnesses()).contains(Witness.DUPLICATE_ABSORBED, Witness.LEASE_RECLAIMED);
    }
}
