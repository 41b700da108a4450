package com.team.outbox.misbehaving;

import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.time.Duration;

/** A relay whose claim query names a column its table does not have: every poll throws. */
public class ThrowingRelay extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2) {
            @Override
            protected String claimableSql() {
                return super.claimableSql().replace("o.status = 'NEW'", "o.state = 'NEW'");
            }
        };
    }
}
