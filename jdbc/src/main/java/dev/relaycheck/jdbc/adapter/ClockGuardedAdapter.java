package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.model.Event;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A Java adapter as relaycheck drives it: every connection it is handed sees the SQL the adapter sends, and
 * a statement that reads the database's clock stops the check with {@link WallClock.ReadException} (one line:
 * which method, which function). Detection covers SQL given to {@code prepareStatement}, {@code prepareCall}
 * and a {@code Statement}'s execute methods, not a clock the adapter reads in Java. Every other method, the
 * optional declarations included, is the adapter's own.
 */
public final class ClockGuardedAdapter implements RelayAdapter {
    private final RelayAdapter inner;

    public ClockGuardedAdapter(RelayAdapter inner) {
        this.inner = inner;
    }

    private Connection guard(Connection c, String method) {
        String where = inner.getClass().getName() + "." + method;
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{Connection.class},
                handler(c, where));
    }

    private static InvocationHandler handler(Object target, String where) {
        return (proxy, m, args) -> {
            if (args != null && args.length > 0 && args[0] instanceof String sql
                    && (m.getName().startsWith("prepare") || m.getName().startsWith("execute") || m.getName().equals("addBatch"))) {
                WallClock.readBy(sql).ifPresent(f -> {
                    throw new WallClock.ReadException(WallClock.refusal(where, f));
                });
            }
            Object result;
            try {
                result = m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof Statement st && m.getName().equals("createStatement")) {
                return Proxy.newProxyInstance(Statement.class.getClassLoader(), new Class<?>[]{Statement.class}, handler(st, where));
            }
            return result;
        };
    }

    @Override
    public void createSchema(Connection outbox) throws SQLException {
        inner.createSchema(guard(outbox, "createSchema"));
    }

    @Override
    public void clear(Connection outbox) throws SQLException {
        inner.clear(guard(outbox, "clear"));
    }

    @Override
    public void enqueue(Connection outbox, Event event) throws SQLException {
        inner.enqueue(guard(outbox, "enqueue"), event);
    }

    @Override
    public List<ClaimedRow> claim(Connection outbox, ClaimRequest request) throws SQLException {
        return inner.claim(guard(outbox, "claim"), request);
    }

    @Override
    public boolean ack(Connection outbox, String eventId, long token, int now) throws SQLException {
        return inner.ack(guard(outbox, "ack"), eventId, token, now);
    }

    @Override
    public boolean release(Connection outbox, String eventId, long token, int now) throws SQLException {
        return inner.release(guard(outbox, "release"), eventId, token, now);
    }

    @Override
    public boolean ack(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return inner.ack(guard(outbox, "ack"), eventId, token, now, poller);
    }

    @Override
    public boolean release(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return inner.release(guard(outbox, "release"), eventId, token, now, poller);
    }

    @Override
    public boolean renews() {
        return inner.renews();
    }

    @Override
    public boolean renew(Connection outbox, String eventId, long token, String poller, int now, int expiry) throws SQLException {
        return inner.renew(guard(outbox, "renew"), eventId, token, poller, now, expiry);
    }

    @Override
    public boolean readsByCursor() {
        return inner.readsByCursor();
    }

    @Override
    public boolean fencedByOwner() {
        return inner.fencedByOwner();
    }

    @Override
    public OutboxSnapshot snapshot(Connection outbox) throws SQLException {
        return inner.snapshot(guard(outbox, "snapshot"));
    }

    @Override
    public boolean claimsInTwoTransactions() {
        return inner.claimsInTwoTransactions();
    }

    @Override
    public java.util.Set<dev.relaycheck.model.Invariant> promisedInvariants() {
        return inner.promisedInvariants();
    }

    @Override
    public dev.relaycheck.model.RelayLogic.TokenPolicy tokenPolicy() {
        return inner.tokenPolicy();
    }

    @Override
    public boolean deliversAndAcks() {
        return inner.deliversAndAcks();
    }

    @Override
    public boolean deliverAndAck(Connection outbox, ClaimedRow held, int now, Delivery delivery) throws SQLException {
        return inner.deliverAndAck(guard(outbox, "deliverAndAck"), held, now, delivery);
    }

    @Override
    public boolean cleansUp() {
        return inner.cleansUp();
    }

    @Override
    public void cleanup(Connection outbox, int now) throws SQLException {
        inner.cleanup(guard(outbox, "cleanup"), now);
    }

    @Override
    public List<Event> claimRead(Connection outbox, ClaimRequest request) throws SQLException {
        return inner.claimRead(guard(outbox, "claimRead"), request);
    }

    @Override
    public List<ClaimedRow> claimWrite(Connection outbox, ClaimRequest request, List<Event> read) throws SQLException {
        return inner.claimWrite(guard(outbox, "claimWrite"), request, read);
    }
}
