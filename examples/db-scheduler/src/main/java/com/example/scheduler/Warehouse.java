package com.example.scheduler;

/** Where the task reserves stock for an order. */
public interface Warehouse {
    void reserve(StockReservation r) throws Exception;
}
