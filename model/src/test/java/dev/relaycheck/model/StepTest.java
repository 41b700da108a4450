package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StepTest {

    @ParameterizedTest
    @ValueSource(strings = {"Produce(E1)", "ProduceFails(E1)", "Claim(p1)", "Deliver(p1,EVENT-61,t3)",
            "Ack(p1,EVENT-61,t3)", "Release(p2,E1,t12)", "Tick", "Crash(p1)", "LoseAck(p1,E1)", "DeliverFails(p1,E1)"})
    void printedFormParsesBack(String text) {
        assertThat(Step.parse(text).toString()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Ack(p1,E1)", "Ack(p1,E1,3)", "Fly(p1)", "Tick(1)", "Claim()", "Ack(p1,,t1)", "Claim(p1"})
    void malformedStepsAreRefusedWithAReadableMessage(String text) {
        assertThatThrownBy(() -> Step.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("Exception");
    }

    @Test
    void stepsNameTheEventTheyAreAbout() {
        assertThat(Step.parse("Ack(p1,E1,t1)").eventId()).isEqualTo("E1");
        assertThat(Step.parse("ProduceFails(E2)").eventId()).isEqualTo("E2");
        assertThat(Step.parse("LoseAck(p1,E3)").eventId()).isEqualTo("E3");
        assertThat(Step.parse("Claim(p1)").eventId()).isEmpty();
        assertThat(Step.parse("Tick").eventId()).isEmpty();
    }

    @Test
    void aStepThatIsNotEnabledIsRefused() {
        RelayModel model = new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.event61LostAck());
        assertThatThrownBy(() -> model.apply(model.initial(), Step.parse("Ack(p1,EVENT-61,t1)")))
                .isInstanceOf(IllegalStepException.class).hasMessageContaining("not enabled");
    }
}
