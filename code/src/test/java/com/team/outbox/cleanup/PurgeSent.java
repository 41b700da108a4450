package com.team.outbox.cleanup;

import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;
import dev.relaycheck.code.Poller;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.Statement;

/** The team's relay with its nightly purge of the rows it has sent, as teams schedule one. */
public class PurgeSent extends TeamRelayCheck {
    @Override
    public Poller cleanup(Instance job) {
        return () -> purge(job.dataSource());
    }

    protected String purgeSql() {
        return "DELETE FROM outbox WHERE status = 'SENT'";
    }

    private void purge(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.executeUpdate(purgeSql());
            c.commit();
        }
    }
}
