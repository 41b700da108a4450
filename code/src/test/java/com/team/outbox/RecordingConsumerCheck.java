package com.team.outbox;

import dev.relaycheck.code.Instance;
import dev.relaycheck.code.Poller;

import java.time.Duration;

/** The same relay delivering to relaycheck's recording consumer: no consumer of the team's, no effects query. */
public class RecordingConsumerCheck extends TeamRelayCheck {
    @Override
    public Poller newInstance(Instance instance) {
        OutboxRelay relay = new OutboxRelay(instance.dataSource(), m -> instance.deliver(m.id()), instance.clock(), instance.id(),
                Duration.ofSeconds(30), 2);
        return relay::pollOnce;
    }

    @Override
    public String effectsQuery() {
        return null;
    }
}
