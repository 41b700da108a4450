package com.team.outbox;

import dev.relaycheck.code.Instance;
import dev.relaycheck.code.NewEvent;
import dev.relaycheck.code.Poller;
import dev.relaycheck.code.RelayFactory;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;

/** What the team writes for relaycheck: its relay, its producer and its consumer, unchanged. */
public class TeamRelayCheck implements RelayFactory {
    @Override
    public void createSchema(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            for (String[] ddl : new String[][]{OutboxRelay.SCHEMA, InventoryConsumer.SCHEMA, OrderService.SCHEMA}) {
                for (String s : ddl) {
                    st.execute(s);
                }
            }
        }
    }

    @Override
    public Poller newInstance(Instance instance) {
        InventoryConsumer consumer = consumer(instance);
        OutboxRelay relay = relay(instance, m -> instance.deliver(m.id(), () -> consumer.handle(m)));
        return relay::pollOnce;
    }

    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2);
    }

    protected InventoryConsumer consumer(Instance instance) {
        return new InventoryConsumer(instance.dataSource());
    }

    @Override
    public void produce(Connection c, NewEvent event) throws Exception {
        OrderService.placeOrder(c, event.aggregate(), event.quantity());
    }

    @Override
    public String outboxQuery() {
        return "SELECT id, aggregate_id AS aggregate, seq AS order_key, status = 'SENT' AS delivered, locked_by AS owner, "
                + "locked_until AS lease_expiry FROM outbox";
    }

    @Override
    public String effectsQuery() {
        return "SELECT event_id AS id FROM stock_move";
    }
}
