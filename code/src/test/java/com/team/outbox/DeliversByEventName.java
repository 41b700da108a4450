package com.team.outbox;

import dev.relaycheck.code.Instance;
import dev.relaycheck.code.NewEvent;
import dev.relaycheck.code.Poller;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;

/**
 * A relay whose message carries the event's own name (relaycheck's E1, as a business key) and hands that to the
 * recording consumer, while its outbox ids are UUIDs: a library that delivers the event, not the row.
 */
public class DeliversByEventName extends RecordingConsumerCheck {
    @Override
    public Poller newInstance(Instance instance) {
        OutboxRelay relay = new OutboxRelay(instance.dataSource(), m -> instance.deliver(m.payload()), instance.clock(), instance.id(),
                Duration.ofSeconds(30), 2);
        return relay::pollOnce;
    }

    @Override
    public void produce(Connection c, NewEvent event) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO outbox (id, aggregate_id, payload) VALUES (?, ?, ?)")) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setString(2, event.aggregate());
            ps.setString(3, event.id());
            ps.executeUpdate();
        }
    }
}
