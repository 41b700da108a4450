package com.team.outbox.broken;

import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.time.Duration;

/** The relay marks a row sent by its id alone: a poller whose lock ran out and was taken over still marks it. */
public class UnfencedMarkSent extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2) {
            @Override
            protected String markSentSql() {
                return "UPDATE outbox SET status = 'SENT', locked_by = NULL, locked_until = NULL WHERE id = ?";
            }
        };
    }
}
