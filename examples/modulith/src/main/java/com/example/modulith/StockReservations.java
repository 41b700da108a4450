package com.example.modulith;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The inventory module's side: a reservation per order, written in the listener's transaction. An order reserved
 * already is reserved once: Spring Modulith delivers at least once.
 */
public class StockReservations implements Warehouse {
    private final JdbcTemplate jdbc;

    public StockReservations(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void reserve(OrderPlaced order) {
        jdbc.update("INSERT INTO stock_reservation (order_id, sku, units) SELECT ?, ?, ? WHERE NOT EXISTS "
                + "(SELECT 1 FROM stock_reservation WHERE order_id = ?)", order.orderId(), order.sku(), order.units(), order.orderId());
    }
}
