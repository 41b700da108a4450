package com.team;

import dev.relaycheck.junit.RelayProperties;
import org.junit.jupiter.api.Test;

class TeamRelayTest {
    @Test
    void theTeamsLogicRejectsStaleAcks() {
        RelayProperties.assertThatLogic(TeamRelayLogic.class).rejectsStaleAcks();
    }
}
