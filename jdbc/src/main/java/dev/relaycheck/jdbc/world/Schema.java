package dev.relaycheck.jdbc.world;

import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.Tx;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Scenario;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The tables. The outbox side (the producing service's database) holds relaycheck's business table
 * {@code stock_order} and the relay's own tables (its {@link RelayAdapter#createSchema}); the consumer side
 * holds {@code applied_event} (unique marker key), {@code stock_balance} and {@code stock_movement}, the
 * consumer's ledger of applied effects (what makes "applied once, in order" observable in SQL). Both sides
 * may be one database or two.
 */
public final class Schema {
    private Schema() {
    }

    /** relaycheck's side of the outbox database: the producer's business table, one order per event. */
    private static final String[] BUSINESS_DDL = {
            "CREATE TABLE stock_order (order_id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, quantity INT NOT NULL)"
    };

    private static final String[] CONSUMER_DDL = {
            // written_at: the logical tick the marker was written, what the inbox cleanup's retention is judged by
            "CREATE TABLE applied_event (marker_key VARCHAR(200) PRIMARY KEY, event_id VARCHAR(64) NOT NULL, written_at INT)",
            "CREATE TABLE stock_balance (sku VARCHAR(64) PRIMARY KEY, units INT NOT NULL)",
            "CREATE TABLE stock_movement (movement_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                    + "event_id VARCHAR(64) NOT NULL, sku VARCHAR(64) NOT NULL, seq INT NOT NULL, quantity INT NOT NULL)"
    };

    /** Creates relaycheck's tables and the relay's on fresh, empty databases. */
    public static void create(Databases dbs, RelayAdapter relay) throws SQLException {
        try (Connection o = dbs.openOutbox(); Connection c = dbs.openConsumer()) {
            create(o, c, relay);
        }
    }

    /** Creates both sides' tables (on one connection twice when both sides share a database). */
    public static void create(Connection outbox, Connection consumer, RelayAdapter relay) throws SQLException {
        run(outbox, BUSINESS_DDL);
        try {
            relay.createSchema(outbox);
            outbox.commit();
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, "the relay's schema", ex);
        }
        run(consumer, CONSUMER_DDL);
    }

    /**
     * Puts a scenario's starting state in: stock per SKU, and the events committed before the run (business
     * row and outbox row) unless the scenario produces them during the run. Empties the tables first.
     */
    public static void load(Connection outbox, Connection consumer, Scenario scenario, RelayAdapter relay) throws SQLException {
        relay.clear(outbox);
        run(outbox, "DELETE FROM stock_order");
        run(consumer, "DELETE FROM applied_event", "DELETE FROM stock_balance", "DELETE FROM stock_movement");
        try (PreparedStatement ps = consumer.prepareStatement("INSERT INTO stock_balance (sku, units) VALUES (?, ?)")) {
            for (Map.Entry<String, Integer> e : scenario.initialStock().entrySet()) {
                ps.setString(1, e.getKey());
                ps.setInt(2, e.getValue());
                ps.executeUpdate();
            }
        }
        consumer.commit();
        if (!scenario.producedDuringRun()) {
            for (Event e : scenario.events()) {
                Producer.insertBusinessRow(outbox, e);
                relay.enqueue(outbox, e);
            }
        }
        outbox.commit();
    }

    private static void run(Connection c, String... sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
        c.commit();
    }
}
