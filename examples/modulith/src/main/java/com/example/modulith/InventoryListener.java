package com.example.modulith;

import org.springframework.modulith.events.ApplicationModuleListener;
import org.springframework.stereotype.Component;

/**
 * The inventory module's listener: Spring Modulith registers a publication for it with every {@link OrderPlaced} and
 * marks it completed when this returns. {@code @ApplicationModuleListener}: after the order's commit, on the task
 * executor ({@code @Async}, which Modulith enables), in a transaction of its own.
 */
@Component
public class InventoryListener {
    private final Warehouse warehouse;

    public InventoryListener(Warehouse warehouse) {
        this.warehouse = warehouse;
    }

    @ApplicationModuleListener
    public void on(OrderPlaced order) throws Exception {
        warehouse.reserve(order);
    }
}
