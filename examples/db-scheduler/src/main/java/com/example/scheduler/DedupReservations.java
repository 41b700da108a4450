package com.example.scheduler;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;

/**
 * The handler's effect with its dedup key in one transaction: a reservation per order, keyed by the order. A task run
 * again (its completion was lost, or its execution revived) finds the reservation and adds none.
 */
public class DedupReservations implements Warehouse {
    private final DataSource db;

    public DedupReservations(DataSource db) {
        this.db = db;
    }

    @Override
    public void reserve(StockReservation r) throws Exception {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO stock_reservation (order_id, sku, units) SELECT ?, ?, ? "
                    + "WHERE NOT EXISTS (SELECT 1 FROM stock_reservation WHERE order_id = ?)")) {
                ps.setString(1, r.orderId());
                ps.setString(2, r.sku());
                ps.setInt(3, r.units());
                ps.setString(4, r.orderId());
                ps.executeUpdate();
            }
            c.commit();
        }
    }
}
