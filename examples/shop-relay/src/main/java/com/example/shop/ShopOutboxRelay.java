package com.example.shop;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The shop's outbox relay, as the team wrote it: the order service writes {@code shop_order} and an
 * {@code order_events} row in one transaction; this relay polls {@code order_events} on a schedule, leases
 * a batch to itself ({@code locked_by}, {@code lock_version}, {@code locked_until}), publishes each event
 * and marks it {@code published_at}-style as SENT, presenting the lock version it was given. Time is the
 * shop's lease clock in whole seconds, passed in: the SQL never reads the database's clock.
 */
public class ShopOutboxRelay {
    /** What the relay sends an event to (the consumer's API); a failure leaves the row to be retried. */
    public interface Publisher {
        void publish(OrderEvent event) throws Exception;
    }

    /** One row of order_events, as the relay reads it. */
    public record OrderEvent(String eventId, String sku, long position, int units, String body) {
    }

    /** A leased event: the row and the lock version the lease was taken with. */
    public record Leased(OrderEvent event, long lockVersion, long lockedUntil) {
    }

    public static final String[] SCHEMA = {
            "CREATE TABLE order_events (event_id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, "
                    + "position BIGINT NOT NULL UNIQUE, units INT NOT NULL, body VARCHAR(200) NOT NULL, "
                    + "state VARCHAR(8) NOT NULL DEFAULT 'NEW', locked_by VARCHAR(64), lock_version BIGINT, locked_until BIGINT)",
            "CREATE TABLE relay_lock_seq (id INT PRIMARY KEY, last_version BIGINT NOT NULL)",
            "INSERT INTO relay_lock_seq VALUES (1, 0)"
    };

    /** Unsent, not leased or lease run out, and first of its SKU: the SKU's events go out in order. */
    static final String CLAIMABLE = "e.state = 'NEW' AND (e.lock_version IS NULL OR e.locked_until <= ?) "
            + "AND NOT EXISTS (SELECT 1 FROM order_events f WHERE f.sku = e.sku AND f.state = 'NEW' AND f.position < e.position)";

    private final String workerId;
    private final int batchSize;
    private final long leaseSeconds;

    public ShopOutboxRelay(String workerId, int batchSize, long leaseSeconds) {
        this.workerId = workerId;
        this.batchSize = batchSize;
        this.leaseSeconds = leaseSeconds;
    }

    /** The order service's half: the event row, inside its own order transaction. */
    public static void insertEvent(Connection c, OrderEvent e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO order_events (event_id, sku, position, units, body) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, e.eventId());
            ps.setString(2, e.sku());
            ps.setLong(3, e.position());
            ps.setInt(4, e.units());
            ps.setString(5, e.body());
            ps.executeUpdate();
        }
    }

    /** Leases up to a batch of events to this worker; the caller commits. */
    public List<Leased> lease(Connection c, long now) throws SQLException {
        List<OrderEvent> candidates = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT e.event_id, e.sku, e.position, e.units, e.body FROM order_events e "
                + "WHERE " + CLAIMABLE + " ORDER BY e.position FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED")) {
            ps.setLong(1, now);
            ps.setInt(2, batchSize);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    candidates.add(new OrderEvent(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getString(5)));
                }
            }
        }
        List<Leased> leased = new ArrayList<>();
        if (candidates.isEmpty()) {
            return leased;
        }
        long version;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT last_version FROM relay_lock_seq WHERE id = 1 FOR UPDATE")) {
            rs.next();
            version = rs.getLong(1);
        }
        for (OrderEvent e : candidates) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE order_events e SET locked_by = ?, lock_version = ?, locked_until = ? "
                    + "WHERE e.event_id = ? AND " + CLAIMABLE)) {
                ps.setString(1, workerId);
                ps.setLong(2, version + 1);
                ps.setLong(3, now + leaseSeconds);
                ps.setString(4, e.eventId());
                ps.setLong(5, now);
                if (ps.executeUpdate() == 1) {
                    version++;
                    leased.add(new Leased(e, version, now + leaseSeconds));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE relay_lock_seq SET last_version = ? WHERE id = 1")) {
            ps.setLong(1, version);
            ps.executeUpdate();
        }
        return leased;
    }

    /** The SQL that marks an event sent: only while the row still holds our lock version. */
    protected String markSentSql() {
        return "UPDATE order_events SET state = 'SENT', locked_by = NULL, lock_version = NULL, locked_until = NULL "
                + "WHERE event_id = ? AND lock_version = ? AND state = 'NEW'";
    }

    /** Marks a published event SENT; false when our lease was taken over (someone else now owns the row). */
    public boolean markSent(Connection c, String eventId, long lockVersion) throws SQLException {
        String sql = markSentSql();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, eventId);
            if (sql.contains("lock_version = ?")) {
                ps.setLong(2, lockVersion);
            }
            return ps.executeUpdate() == 1;
        }
    }

    /** Gives a row back after a failed publish, so the next poll retries it at once. */
    public boolean unlock(Connection c, String eventId, long lockVersion) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE order_events SET locked_by = NULL, lock_version = NULL, locked_until = NULL "
                + "WHERE event_id = ? AND lock_version = ? AND state = 'NEW'")) {
            ps.setString(1, eventId);
            ps.setLong(2, lockVersion);
            return ps.executeUpdate() == 1;
        }
    }

    /** One poll: lease a batch, publish each event, mark it sent (or unlock it when publishing failed). */
    public int pollOnce(Supplier<Connection> connections, LongSupplier clockSeconds, Publisher publisher) throws SQLException {
        List<Leased> batch;
        try (Connection c = connections.get()) {
            c.setAutoCommit(false);
            batch = lease(c, clockSeconds.getAsLong());
            c.commit();
        }
        int sent = 0;
        for (Leased l : batch) {
            boolean published;
            try {
                publisher.publish(l.event());
                published = true;
            } catch (Exception e) {
                published = false;
            }
            try (Connection c = connections.get()) {
                c.setAutoCommit(false);
                if (published ? markSent(c, l.event().eventId(), l.lockVersion()) : unlock(c, l.event().eventId(), l.lockVersion())) {
                    sent += published ? 1 : 0;
                }
                c.commit();
            }
        }
        return sent;
    }

    /** Runs {@link #pollOnce} every {@code periodMillis} on a scheduler thread, as the service does in production. */
    public ScheduledExecutorService start(Supplier<Connection> connections, LongSupplier clockSeconds, Publisher publisher, long periodMillis) {
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "shop-outbox-relay-" + workerId));
        s.scheduleWithFixedDelay(() -> {
            try {
                pollOnce(connections, clockSeconds, publisher);
            } catch (SQLException | RuntimeException e) {
                // logged in production; the next poll retries
            }
        }, 0, periodMillis, TimeUnit.MILLISECONDS);
        return s;
    }
}
