package com.acme;

import dev.relaycheck.jdbc.adapter.ClaimRequest;
import dev.relaycheck.jdbc.adapter.ClaimedRow;
import dev.relaycheck.jdbc.adapter.OutboxSnapshot;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.adapter.SqlFileAdapter;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.model.Event;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A team's adapter, outside relaycheck's packages: the reference relay's SQL behind the team's own class
 * ({@link #fenced()} false: its ack skips the token check, the review-approved shortcut).
 */
public class AcmeRelayAdapter implements RelayAdapter {
    private final RelayAdapter sql = new SqlFileAdapter((fenced() ? SqlVariant.CORRECT : SqlVariant.ACK_IGNORES_TOKEN).file(ClaimForm.SKIP_LOCKED));

    protected boolean fenced() {
        return true;
    }

    @Override
    public void createSchema(Connection c) throws SQLException {
        sql.createSchema(c);
    }

    @Override
    public void clear(Connection c) throws SQLException {
        sql.clear(c);
    }

    @Override
    public void enqueue(Connection c, Event e) throws SQLException {
        sql.enqueue(c, e);
    }

    @Override
    public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
        return sql.claim(c, r);
    }

    @Override
    public boolean ack(Connection c, String eventId, long token, int now) throws SQLException {
        return sql.ack(c, eventId, token, now);
    }

    @Override
    public boolean release(Connection c, String eventId, long token, int now) throws SQLException {
        return sql.release(c, eventId, token, now);
    }

    @Override
    public OutboxSnapshot snapshot(Connection c) throws SQLException {
        return sql.snapshot(c);
    }

    /** The broken copy. */
    public static class Unfenced extends AcmeRelayAdapter {
        @Override
        protected boolean fenced() {
            return false;
        }
    }
}
