package com.example.shop.relaycheck;

import com.example.shop.ShopOutboxRelay;
import dev.relaycheck.code.Instance;
import dev.relaycheck.code.NewEvent;
import dev.relaycheck.code.Poller;
import dev.relaycheck.code.RelayFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;

/**
 * All the shop writes for relaycheck to check {@link ShopOutboxRelay} by its own code: the relay as the service builds
 * it (on relaycheck's connections, clock and worker id), the order service's event insert, and one query that reads
 * {@code order_events} in relaycheck's terms. The relay is not changed.
 */
public class ShopRelayCode implements RelayFactory {
    @Override
    public void createSchema(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String ddl : ShopOutboxRelay.SCHEMA) {
                st.execute(ddl);
            }
        }
    }

    @Override
    public Poller newInstance(Instance instance) {
        ShopOutboxRelay relay = relay(instance.id());
        Supplier<Connection> connections = () -> {
            try {
                return instance.dataSource().getConnection();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
        return () -> relay.pollOnce(connections, () -> instance.clock().instant().getEpochSecond(), e -> instance.deliver(e.eventId()));
    }

    protected ShopOutboxRelay relay(String workerId) {
        return new ShopOutboxRelay(workerId, 2, 30);
    }

    @Override
    public void produce(Connection c, NewEvent e) throws SQLException {
        ShopOutboxRelay.insertEvent(c, new ShopOutboxRelay.OrderEvent(e.id(), e.aggregate(), e.sequence(), e.quantity(), "{}"));
    }

    @Override
    public String outboxQuery() {
        return "SELECT event_id AS id, sku AS aggregate, position AS order_key, state = 'SENT' AS delivered, locked_by AS owner, "
                + "locked_until AS lease_expiry, lock_version AS token FROM order_events";
    }
}
