package com.example.gruelbox.relaycheck;

import com.example.gruelbox.StockHandler;
import com.gruelbox.transactionoutbox.DefaultPersistor;
import com.gruelbox.transactionoutbox.Dialect;
import com.gruelbox.transactionoutbox.Instantiator;
import com.gruelbox.transactionoutbox.Invocation;
import com.gruelbox.transactionoutbox.TransactionOutbox;
import com.gruelbox.transactionoutbox.TransactionOutboxEntry;
import com.gruelbox.transactionoutbox.TransactionOutboxListener;
import dev.relaycheck.jdbc.adapter.ClaimRequest;
import dev.relaycheck.jdbc.adapter.ClaimedRow;
import dev.relaycheck.jdbc.adapter.Delivery;
import dev.relaycheck.jdbc.adapter.OutboxSnapshot;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RowStatus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * gruelbox transaction-outbox 4.2.268 under relaycheck, its own code doing the work:
 * <ul>
 *   <li>enqueue: {@code DefaultPersistor.save} of the entry {@code schedule(StockHandler.class).reserve(...)}
 *       would write, due at once (as if its post-commit attempt never ran: the process died after the commit);</li>
 *   <li>claim: {@code TransactionOutbox.flush()}: {@code selectBatch} (due entries, no ORDER BY; SKIP LOCKED on
 *       PostgreSQL only) and {@code pushBack} ({@code UPDATE ... version = version + 1 WHERE id = ? AND version = ?});
 *       its submitter hands the entries to relaycheck instead of a thread pool;</li>
 *   <li>deliver-and-ack: {@code TransactionOutbox.processNow(entry)}: {@code lock} ({@code SELECT ... WHERE id = ? AND
 *       version = ? FOR UPDATE}), the handler, {@code delete ... WHERE id = ? AND version = ?}, in one transaction;</li>
 *   <li>the version column is the per-row token; relaycheck's logical clock is gruelbox's clock (tick t = t seconds
 *       after the epoch); {@code attemptFrequency} is the lease, less a millisecond, because a lease is over when
 *       {@code nextAttemptTime < now} (strictly) and relaycheck's at {@code now >= expiry}.</li>
 * </ul>
 * gruelbox keeps no owner and deletes what it processed, so the adapter keeps a side table ({@code
 * rc_gruelbox_event}: the event, who claimed it, whether it was released) written in the same transactions, to read
 * the outbox back as relaycheck's rows: an entry gone from {@code TXNO_OUTBOX} is DELIVERED.
 *
 * <p>This class is the configuration the gruelbox documentation recommends: the handler writes its effect
 * through gruelbox's transaction. {@link ExternalEffectGruelboxAdapter} is a handler calling another system.
 * Neither promises per-aggregate order (gruelbox orders only its "ordered topics", not used here).
 */
public class GruelboxAdapter implements RelayAdapter {
    static final String SIDE_TABLE = "rc_gruelbox_event";

    private final LogicalClock clock = new LogicalClock();
    private final CallerTransactionManager transactions = new CallerTransactionManager();
    private final List<TransactionOutboxEntry> submitted = new ArrayList<>();
    private final Map<String, TransactionOutboxEntry> held = new TreeMap<>();
    private final Map<String, TransactionOutbox> outboxes = new TreeMap<>();
    private Dialect dialect;
    private DefaultPersistor persistor;
    private Delivery delivery;
    private boolean processed;

    /** Where the handler's effect goes: through gruelbox's transaction (this class) or outside it. */
    protected void applyEffect(Delivery d, Connection gruelboxTransaction) throws SQLException {
        d.applyIn(gruelboxTransaction);
    }

    @Override
    public Set<Invariant> promisedInvariants() {
        Set<Invariant> promised = EnumSet.allOf(Invariant.class);
        promised.remove(Invariant.AGGREGATE_ORDER); // no ORDER BY in selectBatch; order only with ordered topics
        return promised;
    }

    @Override
    public RelayLogic.TokenPolicy tokenPolicy() {
        return RelayLogic.TokenPolicy.PER_ROW_VERSION;
    }

    @Override
    public boolean deliversAndAcks() {
        return true;
    }

    /**
     * The database's idle-in-transaction timeout the team runs with, in milliseconds (0: none). PostgreSQL then
     * ends a session whose transaction sits idle longer (its locks go, its uncommitted work rolls back), as a
     * connection pool's {@code connectionInitSql} or the database's own setting would make it; H2 has no such
     * setting (its LOCK_TIMEOUT only makes a waiting statement fail).
     */
    protected int idleInTransactionTimeoutMillis() {
        return 0;
    }

    private DefaultPersistor persistor(Connection c) throws SQLException {
        if (persistor == null) {
            dialect = c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres") ? Dialect.POSTGRESQL_9 : Dialect.H2;
            persistor = DefaultPersistor.builder().dialect(dialect).migrate(false).build(); // createSchema migrates
        }
        transactions.use(c);
        return persistor;
    }

    /** The timeout on a connection that processes (claims, delivers, releases); schema and producer run without. */
    private void processing(Connection c) throws SQLException {
        persistor(c);
        if (idleInTransactionTimeoutMillis() > 0 && dialect == Dialect.POSTGRESQL_9) {
            try (Statement st = c.createStatement()) { // session-wide once its transaction commits
                st.execute("SET idle_in_transaction_session_timeout = " + idleInTransactionTimeoutMillis());
            }
        }
    }

    /** gruelbox configured for one claim size and lease (relaycheck asks the same ones throughout a run). */
    private TransactionOutbox outbox(Connection c, int batch, int leaseTicks) throws SQLException {
        DefaultPersistor p = persistor(c);
        TransactionOutbox built = outboxes.get(batch + "/" + leaseTicks);
        if (built != null) {
            return built;
        }
        // gruelbox finds its bean validation provider through the context class loader: make it the one that
        // loaded gruelbox (relaycheck loads the adapter and gruelbox from --classpath)
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(TransactionOutbox.class.getClassLoader());
        try {
            built = build(p, batch, leaseTicks);
        } finally {
            thread.setContextClassLoader(before);
        }
        outboxes.put(batch + "/" + leaseTicks, built);
        return built;
    }

    private TransactionOutbox build(DefaultPersistor p, int batch, int leaseTicks) {
        return TransactionOutbox.builder()
                .transactionManager(transactions)
                .persistor(p)
                .clockProvider(() -> clock)
                .attemptFrequency(Duration.ofMillis(leaseTicks * LogicalClock.TICK_MILLIS - 1))
                .flushBatchSize(batch)
                .submitter((entry, process) -> submitted.add(entry)) // the flushed batch goes to relaycheck, not a thread pool
                .instantiator(new HandlerInstantiator())
                .listener(new TransactionOutboxListener() {
                    @Override
                    public void success(TransactionOutboxEntry entry) {
                        processed = true;
                    }
                })
                .serializeMdc(false)
                .build();
    }

    /** The handler gruelbox instantiates: it applies the effect of the event being processed. */
    private final class HandlerInstantiator implements Instantiator {
        @Override
        public String getName(Class<?> clazz) {
            return clazz.getName();
        }

        @Override
        public Object getInstance(String name) {
            if (!name.equals(StockHandler.class.getName())) {
                throw new IllegalArgumentException("unknown handler " + name);
            }
            return new StockHandler(orderId -> applyEffect(delivery, transactions.current().connection()));
        }
    }

    @Override
    public void createSchema(Connection c) throws SQLException {
        persistor(c);
        DefaultPersistor.builder().dialect(dialect).build().migrate(transactions); // gruelbox's own migrations: TXNO_OUTBOX
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + SIDE_TABLE + " (event_id VARCHAR(36) PRIMARY KEY, sku VARCHAR(64) NOT NULL, seq INT NOT NULL, "
                    + "quantity INT NOT NULL, payload VARCHAR(200) NOT NULL, claimed_by VARCHAR(64), released BOOLEAN NOT NULL)");
        }
    }

    @Override
    public void clear(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("DELETE FROM TXNO_OUTBOX");
            st.execute("DELETE FROM " + SIDE_TABLE);
        }
    }

    @Override
    public void enqueue(Connection c, Event e) throws SQLException {
        DefaultPersistor p = persistor(c);
        TransactionOutboxEntry entry = TransactionOutboxEntry.builder()
                .id(e.id())
                .invocation(new Invocation(StockHandler.class.getName(), "reserve",
                        new Class<?>[]{String.class, String.class, Integer.class, Integer.class, String.class},
                        new Object[]{e.id(), e.aggregate(), e.seq(), e.quantity(), e.payload()}))
                .nextAttemptTime(LogicalClock.at(0).minusMillis(1))
                .build();
        try {
            transactions.inTransactionThrows(tx -> p.save(tx, entry));
        } catch (SQLException ex) {
            throw ex;
        } catch (Exception ex) {
            throw new SQLException("gruelbox save of " + e.id() + " failed: " + ex, ex);
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + SIDE_TABLE
                + " (event_id, sku, seq, quantity, payload, released) VALUES (?, ?, ?, ?, ?, FALSE)")) {
            ps.setString(1, e.id());
            ps.setString(2, e.aggregate());
            ps.setInt(3, e.seq());
            ps.setInt(4, e.quantity());
            ps.setString(5, e.payload());
            ps.executeUpdate();
        }
    }

    @Override
    public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
        processing(c);
        TransactionOutbox outbox = outbox(c, r.batch(), r.leaseTicks());
        clock.set(r.now());
        submitted.clear();
        try {
            outbox.flush();
        } catch (RuntimeException e) { // gruelbox wraps a database error unchecked; relaycheck expects it as it is
            throw sqlCause(e);
        }
        List<ClaimedRow> out = new ArrayList<>();
        for (TransactionOutboxEntry entry : submitted) {
            held.put(entry.getId(), entry);
            mark(c, entry.getId(), r.poller(), false);
            out.add(new ClaimedRow(event(c, entry.getId()), entry.getVersion(), expiry(entry)));
        }
        return out;
    }

    @Override
    public boolean deliverAndAck(Connection c, ClaimedRow row, int now, Delivery d) throws SQLException {
        processing(c);
        TransactionOutbox outbox = outbox(c, 1, 1);
        clock.set(now);
        TransactionOutboxEntry entry = held.get(row.event().id());
        if (entry == null || entry.getVersion() != row.token()) {
            entry = TransactionOutboxEntry.builder().id(row.event().id()).version(Math.toIntExact(row.token()))
                    .nextAttemptTime(LogicalClock.at(now)).invocation(new Invocation(StockHandler.class.getName(), "reserve",
                            new Class<?>[0], new Object[0])).build();
        }
        delivery = d;
        processed = false;
        transactions.use(c);
        outbox.processNow(entry); // lock, handler, delete; a failure is recorded by gruelbox itself
        delivery = null;
        return processed;
    }

    @Override
    public boolean ack(Connection c, String eventId, long token, int now) {
        throw new UnsupportedOperationException("gruelbox acknowledges inside processNow (deliverAndAck)");
    }

    /**
     * After a failed delivery: gruelbox's own failure bookkeeping ({@code updateAttemptCount}: attempts + 1,
     * blocked after 5, {@code update ... WHERE id = ? AND version = ?}), with the retry due at once where
     * gruelbox would wait {@code attemptFrequency}: relaycheck's release makes the row claimable immediately.
     */
    @Override
    public boolean release(Connection c, String eventId, long token, int now) throws SQLException {
        processing(c);
        DefaultPersistor p = persistor(c);
        clock.set(now);
        int attempts;
        try (PreparedStatement ps = c.prepareStatement("SELECT attempts FROM TXNO_OUTBOX WHERE id = ?")) {
            ps.setString(1, eventId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
                attempts = rs.getInt(1) + 1;
            }
        }
        TransactionOutboxEntry entry = TransactionOutboxEntry.builder().id(eventId).version(Math.toIntExact(token))
                .invocation(new Invocation(StockHandler.class.getName(), "reserve", new Class<?>[0], new Object[0]))
                .attempts(attempts).blocked(attempts >= 5).lastAttemptTime(LogicalClock.at(now))
                .nextAttemptTime(LogicalClock.at(now).minusMillis(1)).build();
        try {
            transactions.inTransactionThrows(tx -> p.update(tx, entry));
        } catch (SQLException ex) {
            throw ex;
        } catch (Exception ex) {
            if (ex.getClass().getSimpleName().equals("OptimisticLockException")) { // package-private in gruelbox
                return false; // the version moved on: a stale release changes nothing
            }
            throw new SQLException("gruelbox update of " + eventId + " failed: " + ex, ex);
        }
        held.remove(eventId);
        mark(c, eventId, null, true);
        return true;
    }

    /** The SQLException under gruelbox's unchecked wrapping, or the exception itself when there is none. */
    private static RuntimeException sqlCause(RuntimeException e) throws SQLException {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                throw sql;
            }
        }
        return e;
    }

    private void mark(Connection c, String id, String claimedBy, boolean released) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + SIDE_TABLE + " SET claimed_by = ?, released = ? WHERE event_id = ?")) {
            ps.setString(1, claimedBy);
            ps.setBoolean(2, released);
            ps.setString(3, id);
            ps.executeUpdate();
        }
    }

    private static Event event(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT event_id, sku, seq, quantity, payload FROM " + SIDE_TABLE
                + " WHERE event_id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("gruelbox entry " + id + " has no event in " + SIDE_TABLE);
                }
                return new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
            }
        }
    }

    /** The lease's end on relaycheck's clock: the first tick at which {@code nextAttemptTime < now}. */
    private static int expiry(TransactionOutboxEntry entry) {
        return LogicalClock.tickOf(entry.getNextAttemptTime()) + 1;
    }

    @Override
    public OutboxSnapshot snapshot(Connection c) throws SQLException {
        List<OutboxRow> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT e.event_id, e.sku, e.seq, e.quantity, e.payload, e.claimed_by, e.released, "
                + "o.id, o.version, o.nextAttemptTime FROM " + SIDE_TABLE + " e LEFT JOIN TXNO_OUTBOX o ON o.id = e.event_id ORDER BY e.seq");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Event e = new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                if (rs.getString(8) == null) {
                    rows.add(new OutboxRow(e, RowStatus.DELIVERED, null)); // processed: gruelbox deleted it
                    continue;
                }
                long version = rs.getLong(9);
                Timestamp next = rs.getTimestamp(10);
                boolean leased = version > 0 && !rs.getBoolean(7);
                Lease lease = leased ? new Lease(rs.getString(6), version, LogicalClock.tickOf(next.toInstant()) + 1) : null;
                rows.add(new OutboxRow(e, RowStatus.PENDING, lease, version));
            }
        }
        return new OutboxSnapshot(0, rows);
    }
}
