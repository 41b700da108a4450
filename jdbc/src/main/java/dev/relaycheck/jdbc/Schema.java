package dev.relaycheck.jdbc;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Scenario;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The relay's tables. The outbox side (the producing service's database) holds the business table
 * {@code stock_order}, the {@code outbox} and the one-row {@code fencing_token} counter; the consumer side
 * holds {@code applied_event} (unique marker key), {@code stock_balance} and {@code stock_movement}, the
 * consumer's ledger of applied effects (what makes "applied once, in order" observable in SQL). Both sides
 * may be one database or two.
 */
public final class Schema {
    private Schema() {
    }

    private static final String[] OUTBOX_DDL = {
            // the producer's business table: one order per event, written in the producer's transaction
            "CREATE TABLE stock_order (order_id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, quantity INT NOT NULL)",
            "CREATE TABLE outbox (event_id VARCHAR(64) PRIMARY KEY, aggregate_id VARCHAR(64) NOT NULL, seq INT NOT NULL UNIQUE, "
                    + "quantity INT NOT NULL, payload VARCHAR(200) NOT NULL, "
                    + "status VARCHAR(10) NOT NULL CHECK (status IN ('PENDING', 'DELIVERED')), "
                    + "lease_owner VARCHAR(64), lease_token BIGINT, lease_expiry INT)",
            "CREATE INDEX outbox_status_seq ON outbox (status, seq)",
            // a table counter, not a SEQUENCE: it is transactional, so a rolled-back claim issues no token
            "CREATE TABLE fencing_token (id INT PRIMARY KEY, last_token BIGINT NOT NULL)",
            "INSERT INTO fencing_token VALUES (1, 0)"
    };

    private static final String[] CONSUMER_DDL = {
            "CREATE TABLE applied_event (marker_key VARCHAR(200) PRIMARY KEY, event_id VARCHAR(64) NOT NULL)",
            "CREATE TABLE stock_balance (sku VARCHAR(64) PRIMARY KEY, units INT NOT NULL)",
            "CREATE TABLE stock_movement (movement_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                    + "event_id VARCHAR(64) NOT NULL, sku VARCHAR(64) NOT NULL, seq INT NOT NULL, quantity INT NOT NULL)"
    };

    /** Creates both sides' tables (on one connection twice when both sides share a database). */
    public static void create(Connection outbox, Connection consumer) throws SQLException {
        run(outbox, OUTBOX_DDL);
        run(consumer, CONSUMER_DDL);
    }

    /**
     * Puts a scenario's starting state in: stock per SKU, and the events committed before the run (business
     * row and outbox row) unless the scenario produces them during the run. Empties the tables first.
     */
    public static void load(Connection outbox, Connection consumer, Scenario scenario) throws SQLException {
        run(outbox, "DELETE FROM outbox", "DELETE FROM stock_order", "UPDATE fencing_token SET last_token = 0");
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
                Producer.insertOutboxRow(outbox, e);
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
