package com.team.outbox;

import dev.relaycheck.code.Instance;
import dev.relaycheck.code.NewEvent;
import dev.relaycheck.code.Poller;
import dev.relaycheck.code.RelayFactory;

import java.sql.Connection;

/** What the team writes for relaycheck to drive its relay's own code. */
public class OrderOutboxRelayCheck implements RelayFactory {
    @Override
    public void createSchema(Connection c) throws Exception {
        c.createStatement().execute(OrderOutboxRelay.SCHEMA);
    }

    @Override
    public Poller newInstance(Instance i) {
        OrderOutboxRelay relay = relay(i);
        return relay::pollOnce;
    }

    protected OrderOutboxRelay relay(Instance i) {
        return new OrderOutboxRelay(i.dataSource(), i.clock(), i.id(), id -> deliver(i, id));
    }

    static void deliver(Instance i, String id) {
        try {
            i.deliver(id);
        } catch (Exception e) {
            throw new IllegalStateException(e); // the publisher's failure, as the team's broker client throws it
        }
    }

    @Override
    public void produce(Connection c, NewEvent e) throws Exception {
        OrderOutboxRelay.write(c, e.id(), e.aggregate());
    }

    @Override
    public String outboxQuery() {
        return "SELECT id, order_id AS aggregate, seq AS order_key, status = 'SENT' AS delivered, locked_by AS owner, "
                + "locked_until AS lease_expiry FROM order_outbox";
    }
}
