package com.team.outbox.broken;

import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.time.Duration;

/** The claim takes any NEW row whose lock ran out, whether or not an earlier event of its aggregate is still NEW. */
public class NoAggregateRule extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2) {
            @Override
            protected String claimableSql() {
                return super.claimableSql().replaceAll("AND NOT EXISTS \\(SELECT 1 FROM outbox p [^)]*\\) ", "");
            }
        };
    }
}
