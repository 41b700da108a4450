package dev.relaycheck.junit;

import dev.relaycheck.model.RelayLogic;

/**
 * The entry point of the property checks, AssertJ style:
 * <pre>{@code
 * RelayProperties.assertThat(RelayFixture.forAdapter(ShopRelayAdapter.class)).deliversEachEffectOnce().keepsAggregateOrder();
 * RelayProperties.assertThat(MyRelayLogic.class).rejectsStaleAcks();
 * }</pre>
 * Each check also runs the catalogue mistakes that must break the property and fails if one gets through, so a
 * passing property check is one that could have failed.
 */
public final class RelayProperties {
    private RelayProperties() {
    }

    /** The SQL relay a fixture builder names (the team's adapter, the reference, a catalogue mistake). */
    public static SqlRelayProperties assertThat(FixtureBuilder relay) {
        return new SqlRelayProperties(relay.relay());
    }

    /** A relay logic on the model (a team's own logic is wrapped in the contract check). */
    public static LogicProperties assertThat(RelayLogic logic) {
        return new LogicProperties(ModelChecker.of(logic).logic());
    }

    /** A relay logic class with a public no-argument constructor. */
    public static LogicProperties assertThatLogic(Class<? extends RelayLogic> type) {
        return new LogicProperties(ModelChecker.of(type).logic());
    }
}
