package com.example.scheduler;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;

/**
 * The handler's effect outside any transaction of the task's: a stock move written on its own, as a call to another
 * system is, with nothing that tells a second run of the task from the first.
 */
public class LedgerReservations implements Warehouse {
    private final DataSource db;

    public LedgerReservations(DataSource db) {
        this.db = db;
    }

    @Override
    public void reserve(StockReservation r) throws Exception {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO stock_move (order_id, sku, units) VALUES (?, ?, ?)")) {
            ps.setString(1, r.orderId());
            ps.setString(2, r.sku());
            ps.setInt(3, r.units());
            ps.executeUpdate();
        }
    }
}
