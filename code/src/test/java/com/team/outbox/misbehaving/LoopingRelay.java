package com.team.outbox.misbehaving;

import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.time.Duration;
import java.util.List;

/** A relay whose poll spins without ever sending a statement once it has claimed something. */
public class LoopingRelay extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2) {
            @Override
            protected List<OutboxMessage> claim() throws java.sql.SQLException {
                List<OutboxMessage> claimed = super.claim();
                long spins = 0;
                while (!claimed.isEmpty()) {
                    spins++; // waits for a flag nobody sets
                    Thread.onSpinWait();
                }
                return claimed;
            }
        };
    }
}
