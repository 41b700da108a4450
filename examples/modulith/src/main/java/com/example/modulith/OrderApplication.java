package com.example.modulith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/** The service: Spring Boot's auto-configuration, Spring Modulith's JDBC event publication registry among it. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({OrderService.class, InventoryListener.class, PublicationCleanup.class})
public class OrderApplication {
    public static final String[] SCHEMA = {
            "CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, units INT NOT NULL)",
            "CREATE TABLE stock_reservation (order_id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, units INT NOT NULL)"};

    @Bean
    @ConditionalOnMissingBean
    Warehouse warehouse(JdbcTemplate jdbc) {
        return new StockReservations(jdbc);
    }
}
