package com.team.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/** The service's write path: the order and its outbox event, in the caller's transaction. */
public final class OrderService {
    public static final String[] SCHEMA = {"CREATE TABLE orders (id VARCHAR(36) PRIMARY KEY, sku VARCHAR(64) NOT NULL, units INT NOT NULL)"};

    private OrderService() {
    }

    public static void placeOrder(Connection c, String sku, int units) throws SQLException {
        String orderId = UUID.randomUUID().toString();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (id, sku, units) VALUES (?, ?, ?)")) {
            ps.setString(1, orderId);
            ps.setString(2, sku);
            ps.setInt(3, units);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO outbox (id, aggregate_id, payload) VALUES (?, ?, ?)")) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setString(2, sku);
            ps.setString(3, "{\"order\":\"" + orderId + "\",\"units\":" + units + "}");
            ps.executeUpdate();
        }
    }
}
