package com.team.outbox;

import dev.relaycheck.code.Instance;

/** The relay with the "the lock check is redundant" shortcut: it marks a row sent by its id alone. */
public class UnfencedOrderOutboxRelayCheck extends OrderOutboxRelayCheck {
    @Override
    protected OrderOutboxRelay relay(Instance i) {
        return new OrderOutboxRelay(i.dataSource(), i.clock(), i.id(), id -> deliver(i, id)) {
            @Override
            protected String markSentSql() {
                return "UPDATE order_outbox SET status = 'SENT', locked_by = NULL, locked_until = NULL WHERE id = ?";
            }
        };
    }
}
