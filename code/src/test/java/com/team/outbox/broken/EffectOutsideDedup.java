package com.team.outbox.broken;

import com.team.outbox.InventoryConsumer;
import com.team.outbox.OutboxRelay;
import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** The consumer takes the stock in a transaction of its own, committed before it records the event as processed. */
public class EffectOutsideDedup extends TeamRelayCheck {
    @Override
    protected InventoryConsumer consumer(Instance instance) {
        return new InventoryConsumer(instance.dataSource()) {
            @Override
            public void handle(OutboxRelay.OutboxMessage m) throws SQLException {
                try (Connection c = dataSource.getConnection()) {
                    c.setAutoCommit(false);
                    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM processed_event WHERE event_id = ?")) {
                        ps.setString(1, m.id());
                        if (ps.executeQuery().next()) {
                            c.commit();
                            return;
                        }
                    }
                    takeStock(c, m);
                    c.commit(); // the effect is committed here, the marker only below
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO processed_event (event_id) VALUES (?)")) {
                        ps.setString(1, m.id());
                        ps.executeUpdate();
                    }
                    c.commit();
                }
            }
        };
    }
}
