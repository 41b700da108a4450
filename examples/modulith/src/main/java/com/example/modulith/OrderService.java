package com.example.modulith;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The order module: an order and its event in one transaction; Spring Modulith stores the event's publication in it. */
@Service
public class OrderService {
    private final JdbcTemplate jdbc;
    private final ApplicationEventPublisher events;

    public OrderService(JdbcTemplate jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    @Transactional
    public void place(String orderId, String sku, int units) {
        jdbc.update("INSERT INTO orders (id, sku, units) VALUES (?, ?, ?)", orderId, sku, units);
        events.publishEvent(new OrderPlaced(orderId, sku, units));
    }
}
