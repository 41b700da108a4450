package com.example.shop.guide;

import com.example.shop.relaycheck.ShopRelayAdapter;
import com.example.shop.relaycheck.UnfencedShopRelayAdapter;
import dev.relaycheck.junit.CheckSqlRelay;
import dev.relaycheck.junit.Property;
import dev.relaycheck.junit.RelayFixture;
import dev.relaycheck.junit.RelayProperties;
import org.junit.jupiter.api.Test;

import static dev.relaycheck.junit.NegativeControls.expectCaught;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Beyond the guide's hand-written schedules: relaycheck's seeded schedules on the shop's relay, judged by the
 * model's invariants. Each property check also runs the catalogue mistakes that must break it; here the shop's
 * own broken copy (ack by event id, no lock-version check) must fail too.
 */
class ShopRelayPropertiesTest {

    /** The extension's form: the property check runs before the (empty) body. */
    @CheckSqlRelay(adapter = ShopRelayAdapter.class, properties = Property.STALE_ACKS_REJECTED)
    void theShopRelayRejectsStaleAcks() {
    }

    @Test
    void theShopsUnfencedCopyFailsWithTheLineThatReplaysTheTestWithItsSeed() {
        String failure = expectCaught("STALE_ACK_REJECTED",
                () -> RelayProperties.assertThat(RelayFixture.forAdapter(UnfencedShopRelayAdapter.class)).rejectsStaleAcks());
        assertThat(failure).containsPattern("replay: mvn test -Dtest=ShopRelayPropertiesTest#"
                + "theShopsUnfencedCopyFailsWithTheLineThatReplaysTheTestWithItsSeed -Drelaycheck.seed=-?\\d+\n");
    }
}
