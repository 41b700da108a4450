package com.example.modulith;

/** Where the inventory module reserves stock for an order. */
public interface Warehouse {
    void reserve(OrderPlaced order) throws Exception;
}
