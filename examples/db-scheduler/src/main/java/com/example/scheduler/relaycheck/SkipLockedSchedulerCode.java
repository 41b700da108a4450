package com.example.scheduler.relaycheck;

import com.github.kagkarlsson.scheduler.PollingStrategyConfig;

/** The same service polling with lock-and-fetch: {@code FOR UPDATE SKIP LOCKED} (PostgreSQL only in db-scheduler 16.7.1). */
public class SkipLockedSchedulerCode extends SchedulerCode {
    @Override
    protected PollingStrategyConfig pollingStrategy() {
        return new PollingStrategyConfig(PollingStrategyConfig.Type.LOCK_AND_FETCH, 0.5, 1.0);
    }
}
