package com.example.modulith;

/** The order module's domain event: another module reserves the stock. */
public record OrderPlaced(String orderId, String sku, int units) {
}
