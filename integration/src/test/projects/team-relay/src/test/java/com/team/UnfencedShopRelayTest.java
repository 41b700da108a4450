package com.team;

import com.example.shop.relaycheck.UnfencedShopRelayAdapter;
import dev.relaycheck.junit.RelayFixture;
import dev.relaycheck.junit.RelayProperties;
import org.junit.jupiter.api.Test;

/** Fails on purpose (the shop's unfenced copy): its failure's replay line is run again from this directory. */
class UnfencedShopRelayTest {
    @Test
    void theUnfencedShopRelayRejectsStaleAcks() {
        RelayProperties.assertThat(RelayFixture.forAdapter(UnfencedShopRelayAdapter.class)).rejectsStaleAcks();
    }
}
