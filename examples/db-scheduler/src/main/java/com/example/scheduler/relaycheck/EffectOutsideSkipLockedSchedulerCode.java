package com.example.scheduler.relaycheck;

import com.example.scheduler.LedgerReservations;
import com.example.scheduler.Warehouse;

import javax.sql.DataSource;

/** The handler's effect committed on its own, with no dedup key: the lock-and-fetch strategy. */
public class EffectOutsideSkipLockedSchedulerCode extends SkipLockedSchedulerCode {
    @Override
    protected Warehouse warehouse(DataSource db) {
        return new LedgerReservations(db);
    }
}
