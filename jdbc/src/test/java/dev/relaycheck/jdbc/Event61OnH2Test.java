package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.ScheduleRunner;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference case on H2 (docs/model.md): EVENT-61 takes 4 of SKU-29 (stock 10); the consumer
 * commits, the acknowledgement is lost, the row is re-claimed after its lease expires, the redelivery is
 * answered DUPLICATE, the second poller's fenced acknowledgement lands. Final: DELIVERED, one marker, stock
 * 6. Checked with plain SQL on the tables, and step for step against the model.
 */
class Event61OnH2Test {

    static final List<Step> SCHEDULE = Stream.of("Claim(p1)", "Deliver(p1,EVENT-61,t1)", "LoseAck(p1,EVENT-61)", "Tick", "Tick",
            "Claim(p2)", "Deliver(p2,EVENT-61,t2)", "Ack(p2,EVENT-61,t2)").map(Step::parse).toList();

    @ParameterizedTest(name = "consumer in a separate database: {0}")
    @ValueSource(booleans = {true, false})
    void lostAcknowledgementIsAbsorbedAsDuplicate(boolean separate) throws SQLException {
        Databases dbs = separate ? Databases.separateInMemory() : Databases.sharedInMemory();
        Schema.create(dbs, RelayUnderTest.of(SqlVariant.CORRECT).newAdapter());
        List<Outcome> outcomes = new ArrayList<>();
        try (SqlWorld relay = new SqlWorld(RelayUnderTest.of(SqlVariant.CORRECT), ReferenceScenarios.event61LostAck(), dbs)) {
            relay.reset();
            for (Step step : SCHEDULE) {
                Action a = relay.apply(step);
                assertThat(a.step()).isEqualTo(step);
                outcomes.add(a.outcome());
            }
        }
        assertThat(outcomes).extracting(Outcome::kind).containsExactly(
                "CLAIMED", "APPLIED", "ACK_LOST", "TICKED", "TICKED", "CLAIMED", "DUPLICATE", "ACKED");
        assertThat(outcomes.get(5)).isEqualTo(new Outcome.Claimed(List.of(new Outcome.Grant("EVENT-61", 2, 4, true))));

        try (Connection outbox = dbs.openOutbox(); Connection consumer = dbs.openConsumer()) {
            assertThat(query(outbox, "SELECT status || '/' || COALESCE(lease_token, 0) FROM outbox WHERE event_id = 'EVENT-61'"))
                    .containsExactly("DELIVERED/0");
            assertThat(query(consumer, "SELECT marker_key FROM applied_event")).containsExactly("EVENT-61");
            assertThat(query(consumer, "SELECT units FROM stock_balance WHERE sku = 'SKU-29'")).containsExactly("6");
            assertThat(query(consumer, "SELECT COUNT(*) FROM stock_movement WHERE event_id = 'EVENT-61'")).containsExactly("1");
        } finally {
            dbs.shutdown();
        }

        ScheduleRunner.Run model = ScheduleRunner.run(new RelayModel(LogicCatalogue.correct(), ReferenceScenarios.event61LostAck()), SCHEDULE);
        assertThat(model.steps()).extracting(ScheduleRunner.Executed::outcome).containsExactlyElementsOf(outcomes);
    }

    @ParameterizedTest(name = "claim form {0}")
    @ValueSource(strings = {"SKIP_LOCKED", "CONDITIONAL_UPDATE"})
    void staleOwnersAcknowledgementUpdatesNoRow(String form) throws SQLException {
        Databases dbs = Databases.separateInMemory();
        Schema.create(dbs, RelayUnderTest.of(SqlVariant.CORRECT).newAdapter());
        try (SqlWorld relay = new SqlWorld(RelayUnderTest.of(SqlVariant.CORRECT, ClaimForm.valueOf(form)), ReferenceScenarios.event61LostAck(), dbs)) {
            relay.reset();
            // p1 claims and delivers, then stalls past its lease; p2 re-claims; p1's late ack must change nothing
            for (String s : List.of("Claim(p1)", "Deliver(p1,EVENT-61,t1)", "Tick", "Tick", "Claim(p2)")) {
                relay.apply(Step.parse(s));
            }
            Action late = relay.apply(Step.parse("Ack(p1,EVENT-61,t1)"));
            assertThat(late.outcome()).isEqualTo(new Outcome.Stale("EVENT-61", 1, 2));
            assertThat(relay.snapshot().row("EVENT-61").orElseThrow().lease().owner()).isEqualTo("p2");
            assertThat(relay.apply(Step.parse("Deliver(p2,EVENT-61,t2)")).outcome()).isEqualTo(new Outcome.Duplicate("EVENT-61"));
            assertThat(relay.apply(Step.parse("Ack(p2,EVENT-61,t2)")).outcome()).isEqualTo(new Outcome.Acked("EVENT-61", 2));
        } finally {
            dbs.shutdown();
        }
    }

    static List<String> query(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
