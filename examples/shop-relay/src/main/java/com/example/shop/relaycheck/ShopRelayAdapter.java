package com.example.shop.relaycheck;

import com.example.shop.ShopOutboxRelay;
import com.example.shop.ShopOutboxRelay.Leased;
import com.example.shop.ShopOutboxRelay.OrderEvent;
import dev.relaycheck.jdbc.adapter.ClaimRequest;
import dev.relaycheck.jdbc.adapter.ClaimedRow;
import dev.relaycheck.jdbc.adapter.OutboxSnapshot;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RowStatus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * How relaycheck drives the shop's relay: each call runs the relay's own SQL on relaycheck's connection
 * (relaycheck commits), the lease clock is relaycheck's logical tick, and the rows are read back in
 * relaycheck's terms. Checked with {@code relaycheck sql all --adapter com.example.shop.relaycheck.ShopRelayAdapter
 * --classpath target/classes --db postgres}.
 */
public class ShopRelayAdapter implements RelayAdapter {

    /** The relay under test, for one poller; a broken copy overrides this. */
    protected ShopOutboxRelay relay(String worker, int batch, int leaseTicks) {
        return new ShopOutboxRelay(worker, batch, leaseTicks);
    }

    @Override
    public void createSchema(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String ddl : ShopOutboxRelay.SCHEMA) {
                st.execute(ddl);
            }
        }
    }

    @Override
    public void clear(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("DELETE FROM order_events");
            st.execute("UPDATE relay_lock_seq SET last_version = 0 WHERE id = 1");
        }
    }

    @Override
    public void enqueue(Connection c, Event e) throws SQLException {
        ShopOutboxRelay.insertEvent(c, new OrderEvent(e.id(), e.aggregate(), e.seq(), e.quantity(), e.payload()));
    }

    @Override
    public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
        List<ClaimedRow> out = new ArrayList<>();
        for (Leased l : relay(r.poller(), r.batch(), r.leaseTicks()).lease(c, r.now())) {
            OrderEvent e = l.event();
            out.add(new ClaimedRow(new Event(e.eventId(), e.sku(), (int) e.position(), e.units(), e.body()), l.lockVersion(),
                    Math.toIntExact(l.lockedUntil())));
        }
        return out;
    }

    @Override
    public boolean ack(Connection c, String eventId, long token, int now) throws SQLException {
        return relay("ack", 1, 1).markSent(c, eventId, token);
    }

    @Override
    public boolean release(Connection c, String eventId, long token, int now) throws SQLException {
        return relay("release", 1, 1).unlock(c, eventId, token);
    }

    @Override
    public OutboxSnapshot snapshot(Connection c) throws SQLException {
        List<OutboxRow> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT event_id, sku, position, units, body, state, locked_by, lock_version, "
                + "locked_until FROM order_events ORDER BY position"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Event e = new Event(rs.getString(1), rs.getString(2), (int) rs.getLong(3), rs.getInt(4), rs.getString(5));
                long version = rs.getLong(8);
                Lease lease = rs.wasNull() ? null : new Lease(rs.getString(7), version, Math.toIntExact(rs.getLong(9)));
                rows.add(new OutboxRow(e, rs.getString(6).equals("SENT") ? RowStatus.DELIVERED : RowStatus.PENDING, lease));
            }
        }
        long last;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT last_version FROM relay_lock_seq WHERE id = 1")) {
            rs.next();
            last = rs.getLong(1);
        }
        return new OutboxSnapshot(last, rows);
    }
}
