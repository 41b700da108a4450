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

    /**
     * A property check names what it ran and what it did not: a logic right only while clocks agree passes
     * rejectsStaleAcks, whose scenarios skew no clock, and its result says clock-skew was not run; the model check of
     * that scenario fails it.
     */
    @Test
    void aPassingPropertyNamesTheScenariosItRanAndTheHazardsItDidNot() {
        LogicProperties checked = RelayProperties.assertThat(new com.acme.AppClockLogic()).rejectsStaleAcks();
        PropertyResult result = checked.results().get(0);
        assertThat(result.passed()).isTrue();
        assertThat(result.coverage().ran()).containsExactly("stale-ack-after-expiry", "double-claim", "mixed");
        assertThat(result.coverage().notRun()).contains("clock-skew", "lease-renewal");
        assertThat(result.coverage().faultsNotInjected()).contains("clock skew");
        assertThat(result.line()).startsWith("relaycheck: logic acme-app-clock has the property \"rejects stale")
                .contains("on what was run: ran scenarios [stale-ack-after-expiry, double-claim, mixed]; not run: scenarios [")
                .contains("clock-skew").contains("faults never injected: [").contains("witnesses never reached: [")
                .contains("CLOCK_SKEWED");
        ModelChecker.of(new com.acme.AppClockLogic()).scenarios("clock-skew").check().assertViolates(dev.relaycheck.model.Invariant.SINGLE_LIVE_LEASE);
    }

    /** A check of one property judges that property: another property's violation neither fails it nor hides it. */
    @Test
    void aCheckOfOnePropertyJudgesThatPropertyAlone() {
        dev.relaycheck.model.RelayLogic unordered = dev.relaycheck.model.catalogue.LogicCatalogue.byId("no-head-of-aggregate").orElseThrow();
        LogicProperties checked = RelayProperties.assertThat(unordered).rejectsStaleAcks().deliversEachEffectOnce();
        assertThat(checked.results()).extracting(PropertyResult::passed).containsExactly(true, true);
        assertThatThrownBy(() -> RelayProperties.assertThat(unordered).keepsAggregateOrder())
                .hasMessageContaining("logic no-head-of-aggregate breaks the property \"applies each aggregate's effects")
                .hasMessageContaining("VIOLATION AGGREGATE_ORDER in scenario aggregate-order")
                .hasMessageNotContaining("fix it first");
        // the unfenced logic breaks STALE_ACK_REJECTED alone: its effect-once check passes
        RelayProperties.assertThatLogic(UnfencedLogic.class).deliversEachEffectOnce();
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
        assertThat(replay.output()).contains("judging STALE_ACK_REJECTED, SINGLE_LIVE_LEASE alone").containsPattern("seed -?\\d+: STALE_ACK_REJECTED at step")
                .contains("REPRODUCED");
        assertThat(failure).hasMessageContaining("relay com.acme.AcmeRelayAdapter$Unfenced breaks the property \"rejects stale")
                .hasMessageContaining("VIOLATION STALE_ACK_REJECTED")
                .hasMessageMatching("(?s).*relaycheck CLI: \\./relaycheck sql replay --adapter 'com\\.acme\\.AcmeRelayAdapter\\$Unfenced' --classpath \\S*test-classes --db h2 --scenario \\S+ --walk-seed -?\\d+.*");
    }

    @Test
    void theReferenceSqlRelayKeepsAggregateOrderAndTheUnorderedClaimIsCaughtWithASqlReplayLine() throws Exception {
        RelayProperties.assertThat(RelayFixture.forReference()).keepsAggregateOrder();
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
                () -> RelayProperties.assertThat(RelayFixture.forCatalogueMistake("no-head-of-aggregate")).keepsAggregateOrder());
        assertThat(failure).isInstanceOf(AssertionError.class)
                .hasMessageContaining("VIOLATION AGGREGATE_ORDER in scenario")
                .hasMessageContaining("relaycheck CLI: ./relaycheck sql replay --target no-head-of-aggregate --db h2 --scenario ")
                .hasMessageContaining(" --judge AGGREGATE_ORDER");
        ReplayInCli.Run replay = ReplayInCli.run(failure.getMessage());
        assertThat(replay.output()).containsPattern("seed -?\\d+: AGGREGATE_ORDER at step").contains("REPRODUCED");
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
            // the same violation, trace and replay lines; the coverage line says what this shorter run reached
            String again = org.assertj.core.api.Assertions.catchThrowable(() -> RelayProperties.assertThat(
                    RelayFixture.forAdapter(com.acme.AcmeRelayAdapter.Unfenced.class)).rejectsStaleAcks()).getMessage();
            assertThat(again.substring(again.indexOf('\n'))).isEqualTo(first.substring(first.indexOf('\n')));
        } finally {
            System.clearProperty("relaycheck.seed");
            System.clearProperty("relaycheck.property.seeds");
        }
    }
}
