package com.example.scheduler;

import java.io.Serializable;

/** The task's data: the stock an order reserves (db-scheduler stores it with Java serialization). */
public record StockReservation(String orderId, String sku, int units) implements Serializable {
}
