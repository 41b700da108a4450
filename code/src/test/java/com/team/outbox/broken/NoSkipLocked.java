package com.team.outbox.broken;

import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.time.Duration;

/** The claim reads claimable rows without locking them and updates them by id without checking again. */
public class NoSkipLocked extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2) {
            @Override
            protected String claimableSql() {
                return super.claimableSql().replace(" FOR UPDATE SKIP LOCKED", "");
            }
        };
    }
}
