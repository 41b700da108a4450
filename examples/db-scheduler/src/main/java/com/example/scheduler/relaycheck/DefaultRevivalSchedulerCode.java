package com.example.scheduler.relaycheck;

import com.example.scheduler.ReserveStock;
import com.example.scheduler.StockReservation;
import com.example.scheduler.Warehouse;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import dev.relaycheck.code.Instance;

/** The task with db-scheduler's own revival of dead executions, which reads {@code Instant.now()}. */
public class DefaultRevivalSchedulerCode extends SchedulerCode {
    @Override
    protected OneTimeTask<StockReservation> task(Instance instance) {
        Warehouse warehouse = warehouse(instance.dataSource());
        return ReserveStock.withDefaultRevival(r -> instance.deliver(r.orderId(), () -> warehouse.reserve(r)));
    }
}
