package com.team.outbox;

import dev.relaycheck.code.Instance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;

/** The team's relay with its fenced mark-sent run by {@code execute()} and its count read after, as some JDBC helpers do. */
public class ExecutingRelayCheck extends TeamRelayCheck {
    @Override
    protected OutboxRelay relay(Instance instance, OutboxRelay.MessagePublisher publisher) {
        return new OutboxRelay(instance.dataSource(), publisher, instance.clock(), instance.id(), Duration.ofSeconds(30), 2) {
            @Override
            protected boolean markSent(OutboxMessage m) throws java.sql.SQLException {
                try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(markSentSql())) {
                    c.setAutoCommit(false);
                    ps.setString(1, m.id());
                    ps.setString(2, instanceId);
                    ps.execute();
                    boolean mine = ps.getUpdateCount() == 1;
                    c.commit();
                    return mine;
                }
            }
        };
    }
}
