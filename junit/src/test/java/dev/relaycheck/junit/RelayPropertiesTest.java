package dev.relaycheck.junit;

import com.acme.OwnerFencedLogic;
import com.acme.UnfencedLogic;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Property checks on the model and on SQL relays, each proving it can fail. */
class RelayPropertiesTest {

    @Test
    void aTeamsCorrectLogicHasEveryPropertyAndEachCheckCatchesItsMistakes() {
        RelayProperties.assertThat(new OwnerFencedLogic()).rejectsStaleAcks().deliversEachEffectOnce().keepsAggregateOrder()
                .producesAtomically();
    }

    @Test
    void anUnfencedLogicFailsWithTheTraceAndTheReplayLine() {
        assertThatThrownBy(() -> RelayProperties.assertThatLogic(UnfencedLogic.class).rejectsStaleAcks())
                .hasMessageContaining("logic acme-unfenced breaks the property \"rejects stale acknowledgements")
                .hasMessageContaining("VIOLATION STALE_ACK_REJECTED in scenario stale-ack-after-expiry")
                .hasMessageContaining("replay: mvn test -Dtest=RelayPropertiesTest#anUnfencedLogicFailsWithTheTraceAndTheReplayLine\n")
                .hasMessageContaining("relaycheck CLI: ./relaycheck replay rc1:");
    }

    @Test
    void everyPropertyHasNegativeControls() {
        for (Property p : Property.values()) {
            assertThat(p.negativeControls()).as(p.name()).isNotEmpty();
        }
    }

    @Test
    void aTeamsAdapterIsCheckedAndItsBrokenCopyFailsWithAReplayLineNamingItsClassAndClassPath() throws Exception {
        RelayProperties.assertThat(RelayFixture.forAdapter(com.acme.AcmeRelayAdapter.class)).rejectsStaleAcks();
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
                () -> RelayProperties.assertThat(RelayFixture.forAdapter(com.acme.AcmeRelayAdapter.Unfenced.class)).rejectsStaleAcks());
        ReplayInCli.Run replay = ReplayInCli.run(failure.getMessage());
        assertThat(replay.output()).contains("STALE_ACK_REJECTED").contains("REPRODUCED");
        assertThat(failure).hasMessageContaining("relay com.acme.AcmeRelayAdapter$Unfenced breaks the property \"rejects stale")
                .hasMessageContaining("VIOLATION STALE_ACK_REJECTED")
                .hasMessageMatching("(?s).*relaycheck CLI: \\./relaycheck sql replay --adapter 'com\\.acme\\.AcmeRelayAdapter\\$Unfenced' --classpath \\S*test-classes --db h2 --scenario \\S+ --walk-seed -?\\d+.*");
    }

    @Test
    void theReferenceSqlRelayKeepsAggregateOrderAndTheUnorderedClaimIsCaughtWithASqlReplayLine() {
        RelayProperties.assertThat(RelayFixture.forReference()).keepsAggregateOrder();
        assertThatThrownBy(() -> RelayProperties.assertThat(RelayFixture.forCatalogueMistake("no-head-of-aggregate")).keepsAggregateOrder())
                .hasMessageContaining("VIOLATION AGGREGATE_ORDER in scenario")
                .hasMessageContaining("relaycheck CLI: ./relaycheck sql replay --target no-head-of-aggregate --db h2 --scenario ");
    }

    @Test
    void theSeedOfTheReplayLineReproducesTheViolationOnItsOwn() {
        String first = org.assertj.core.api.Assertions.catchThrowable(
                () -> RelayProperties.assertThat(RelayFixture.forAdapter(com.acme.AcmeRelayAdapter.Unfenced.class)).rejectsStaleAcks()).getMessage();
        java.util.regex.Matcher seed = java.util.regex.Pattern.compile("replay: mvn test -Dtest=RelayPropertiesTest#"
                + "theSeedOfTheReplayLineReproducesTheViolationOnItsOwn -Drelaycheck\\.seed=(-?\\d+)\n").matcher(first);
        assertThat(seed.find()).as(first).isTrue();
        System.setProperty("relaycheck.seed", seed.group(1));
        System.setProperty("relaycheck.property.seeds", "0"); // the replay line's seed and no other
        try {
            assertThatThrownBy(() -> RelayProperties.assertThat(RelayFixture.forAdapter(com.acme.AcmeRelayAdapter.Unfenced.class)).rejectsStaleAcks())
                    .hasMessage(first);
        } finally {
            System.clearProperty("relaycheck.seed");
            System.clearProperty("relaycheck.property.seeds");
        }
    }
}
