package com.example.scheduler;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;

/**
 * The order service: the order and its task in one transaction. db-scheduler's client joins it through a
 * {@link TransactionAwareDataSourceProxy} (its client does not commit a connection it did not open in auto-commit).
 */
public class OrderService {
    private final TransactionTemplate tx;
    private final JdbcTemplate jdbc;
    private final SchedulerClient tasks;
    private final OneTimeTask<StockReservation> reserveStock;
    private final Clock clock;

    /** {@code tasks}: a scheduler client on {@link #transactional(DataSource) transactional(db)}. */
    public OrderService(DataSource db, SchedulerClient tasks, OneTimeTask<StockReservation> reserveStock, Clock clock) {
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(db));
        this.jdbc = new JdbcTemplate(db);
        this.tasks = tasks;
        this.reserveStock = reserveStock;
        this.clock = clock;
    }

    /** What the service's scheduler client is built on: connections that take part in the order's transaction. */
    public static DataSource transactional(DataSource db) {
        return new TransactionAwareDataSourceProxy(db);
    }

    public void place(String orderId, String sku, int units) {
        tx.executeWithoutResult(status -> {
            jdbc.update("INSERT INTO orders (id, sku, units) VALUES (?, ?, ?)", orderId, sku, units);
            tasks.schedule(reserveStock.instance(orderId, new StockReservation(orderId, sku, units)), clock.instant());
        });
    }
}
