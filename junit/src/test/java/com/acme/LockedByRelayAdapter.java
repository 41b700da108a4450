package com.acme;

import dev.relaycheck.jdbc.adapter.*;
import dev.relaycheck.model.*;
import java.sql.*;
import java.util.*;

/** A team's relay fenced by owner: rows locked by the worker's id until a deadline, no token column. */
public class LockedByRelayAdapter implements RelayAdapter {
    /** The id a worker writes into locked_by. */
    protected String owner(String poller) { return poller; }
    /** How ack and release make sure the row is still this worker's. */
    protected String mine() { return " AND locked_by = ?"; }

    @Override public boolean fencedByOwner() { return true; }

    public void createSchema(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE jobs (id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, pos INT NOT NULL, "
                    + "units INT NOT NULL, body VARCHAR(200) NOT NULL, state VARCHAR(8) NOT NULL, locked_by VARCHAR(64), "
                    + "locked_until INT)");
        }
    }

    public void clear(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) { st.execute("DELETE FROM jobs"); }
    }

    public void enqueue(Connection c, Event e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO jobs (id, sku, pos, units, body, state) VALUES (?, ?, ?, ?, ?, 'NEW')")) {
            ps.setString(1, e.id()); ps.setString(2, e.aggregate()); ps.setInt(3, e.seq()); ps.setInt(4, e.quantity());
            ps.setString(5, e.payload());
            ps.executeUpdate();
        }
    }

    public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
        List<Event> seen = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT p.id, p.sku, p.pos, p.units, p.body FROM jobs p "
                + "WHERE p.state = 'NEW' AND (p.locked_by IS NULL OR p.locked_until <= ?) AND NOT EXISTS (SELECT 1 FROM jobs q "
                + "WHERE q.sku = p.sku AND q.state = 'NEW' AND q.pos < p.pos) ORDER BY p.pos FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED")) {
            ps.setInt(1, r.now()); ps.setInt(2, r.batch());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) seen.add(new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5)));
            }
        }
        List<ClaimedRow> out = new ArrayList<>();
        for (Event e : seen) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET locked_by = ?, locked_until = ? WHERE id = ? "
                    + "AND state = 'NEW' AND (locked_by IS NULL OR locked_until <= ?)")) {
                ps.setString(1, owner(r.poller())); ps.setInt(2, r.expiry()); ps.setString(3, e.id()); ps.setInt(4, r.now());
                if (ps.executeUpdate() == 1) out.add(new ClaimedRow(e, 0, r.expiry()));
            }
        }
        return out;
    }

    private boolean settle(Connection c, String set, String id, String poller) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET " + set + " WHERE id = ? AND state = 'NEW'" + mine())) {
            ps.setString(1, id);
            if (!mine().isEmpty()) ps.setString(2, owner(poller));
            return ps.executeUpdate() == 1;
        }
    }

    @Override public boolean ack(Connection c, String id, long token, int now, String poller) throws SQLException {
        return settle(c, "state = 'DONE', locked_by = NULL, locked_until = NULL", id, poller);
    }

    @Override public boolean release(Connection c, String id, long token, int now, String poller) throws SQLException {
        return settle(c, "locked_by = NULL, locked_until = NULL", id, poller);
    }

    public OutboxSnapshot snapshot(Connection c) throws SQLException {
        List<OutboxRow> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT id, sku, pos, units, body, state, locked_by, locked_until FROM jobs ORDER BY pos")) {
            while (rs.next()) {
                Event e = new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                Lease lease = rs.getString(7) == null ? null : new Lease(rs.getString(7), 0, rs.getInt(8));
                rows.add(new OutboxRow(e, rs.getString(6).equals("DONE") ? RowStatus.DELIVERED : RowStatus.PENDING, lease));
            }
        }
        return new OutboxSnapshot(0, rows);
    }

    /** Every worker of the node locks rows under the node's id: owner names are no longer unique. */
    public static class NodeId extends LockedByRelayAdapter {
        @Override protected String owner(String poller) { return "node-1"; }
    }
}
