package com.example.scheduler;

import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

/** The one-time task the order service schedules in the order's transaction: the outbox entry and its relay in one. */
public final class ReserveStock {
    public static final String NAME = "reserve-stock";

    private ReserveStock() {
    }

    /**
     * The task, with db-scheduler's defaults (a failure is retried 5 minutes later) but for the revival of a dead
     * execution: the default {@code ReviveDeadExecution} reschedules it to {@code Instant.now()}, the JVM's clock, where
     * this one takes the time the scheduler's own {@code Clock} gave its dead-execution check (the same instant in
     * production).
     */
    public static OneTimeTask<StockReservation> task(Warehouse warehouse) {
        return Tasks.oneTime(NAME, StockReservation.class)
                .onDeadExecution((dead, operations) -> operations.reschedule(dead, dead.getTimeDone()))
                .execute((instance, context) -> reserve(warehouse, instance.getData()));
    }

    /** The same task with db-scheduler's default revival of a dead execution. */
    public static OneTimeTask<StockReservation> withDefaultRevival(Warehouse warehouse) {
        return Tasks.oneTime(NAME, StockReservation.class).execute((instance, context) -> reserve(warehouse, instance.getData()));
    }

    private static void reserve(Warehouse warehouse, StockReservation r) {
        try {
            warehouse.reserve(r);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
