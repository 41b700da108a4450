package com.team.outbox.clocks;

import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.time.Duration;

/** The relay compares leases with the database's clock. */
public class DatabaseClockRelay extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2) {
            @Override
            protected String claimableSql() {
                return super.claimableSql().replace("o.locked_until < ?", "o.locked_until < ? + 0 * EXTRACT(EPOCH FROM CURRENT_TIMESTAMP)");
            }
        };
    }
}
