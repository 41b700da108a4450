package com.team.outbox.clocks;

import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.time.Clock;
import java.time.Duration;

/** The relay given the JVM's clock instead of the one relaycheck hands it. */
public class WallClockRelay extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, Clock.systemUTC(), instance.id(), Duration.ofSeconds(30), 2);
    }
}
