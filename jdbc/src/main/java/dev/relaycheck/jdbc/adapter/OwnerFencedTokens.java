package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic.TokenPolicy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A relay fenced by owner ({@link RelayAdapter#fencedByOwner()}), with the fencing tokens relaycheck issues for it:
 * every lease a claim grants gets the next token of relaycheck's own counter, recorded for its row in the claim's
 * transaction (so a rolled-back claim issues none, and a crash-kill child's grants are there for the parent), and
 * the snapshot gives each leased row the token of its latest grant. The model then judges the relay's ack and
 * release as it judges a token-fenced one: an ack that changes a row whose lease another poller has taken since is
 * a stale ack, whatever the relay compared. Everything else is the relay's own.
 */
public final class OwnerFencedTokens implements RelayAdapter {
    static final String LEASES = "relaycheck_lease";
    static final String COUNTER = "relaycheck_token";

    private final RelayAdapter inner;

    private OwnerFencedTokens(RelayAdapter inner) {
        this.inner = inner;
    }

    /**
     * {@code adapter} with relaycheck's tokens when it is fenced by owner; itself otherwise. An IllegalArgumentException
     * with one line for a relay that says it is fenced both by owner and by a per-row version.
     */
    public static RelayAdapter around(RelayAdapter adapter) {
        if (!adapter.fencedByOwner() || adapter instanceof OwnerFencedTokens) {
            return adapter;
        }
        if (adapter.tokenPolicy() != TokenPolicy.GLOBAL_COUNTER) {
            throw new IllegalArgumentException(adapter.getClass().getName() + " says it is fenced by owner and by "
                    + adapter.tokenPolicy() + ": a relay fenced by owner has no token of its own, relaycheck issues them");
        }
        return new OwnerFencedTokens(adapter);
    }

    @Override
    public void createSchema(Connection outbox) throws SQLException {
        inner.createSchema(outbox);
        try (Statement st = outbox.createStatement()) {
            st.execute("CREATE TABLE " + LEASES + " (event_id VARCHAR(200) PRIMARY KEY, token BIGINT NOT NULL)");
            st.execute("CREATE TABLE " + COUNTER + " (id INT PRIMARY KEY, last_token BIGINT NOT NULL)");
            st.execute("INSERT INTO " + COUNTER + " VALUES (1, 0)");
        }
    }

    @Override
    public void clear(Connection outbox) throws SQLException {
        inner.clear(outbox);
        try (Statement st = outbox.createStatement()) {
            st.execute("DELETE FROM " + LEASES);
            st.execute("UPDATE " + COUNTER + " SET last_token = 0");
        }
    }

    @Override
    public void enqueue(Connection outbox, Event event) throws SQLException {
        inner.enqueue(outbox, event);
    }

    @Override
    public List<ClaimedRow> claim(Connection outbox, ClaimRequest request) throws SQLException {
        return issue(outbox, inner.claim(outbox, request));
    }

    @Override
    public List<ClaimedRow> claimWrite(Connection outbox, ClaimRequest request, List<Event> read) throws SQLException {
        return issue(outbox, inner.claimWrite(outbox, request, read));
    }

    /**
     * The next tokens for what the claim leased, in its order. The counter row is locked last, after the relay's own
     * statements ran, so it orders the claims' commits without changing how the relay's claims race.
     */
    private static List<ClaimedRow> issue(Connection c, List<ClaimedRow> leased) throws SQLException {
        if (leased.isEmpty()) {
            return leased;
        }
        long last = last(c, " FOR UPDATE");
        List<ClaimedRow> out = new ArrayList<>();
        for (ClaimedRow row : leased) {
            long token = ++last;
            try (PreparedStatement del = c.prepareStatement("DELETE FROM " + LEASES + " WHERE event_id = ?");
                 PreparedStatement ins = c.prepareStatement("INSERT INTO " + LEASES + " (event_id, token) VALUES (?, ?)")) {
                del.setString(1, row.event().id());
                del.executeUpdate();
                ins.setString(1, row.event().id());
                ins.setLong(2, token);
                ins.executeUpdate();
            }
            out.add(new ClaimedRow(row.event(), token, row.expiry()));
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + COUNTER + " SET last_token = ? WHERE id = 1")) {
            ps.setLong(1, last);
            ps.executeUpdate();
        }
        return out;
    }

    private static long last(Connection c, String lock) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT last_token FROM " + COUNTER + " WHERE id = 1" + lock)) {
            if (!rs.next()) {
                throw new SQLException(COUNTER + " has no row: the schema was not created through relaycheck");
            }
            return rs.getLong(1);
        }
    }

    /** The relay's rows, each leased one with the token of its latest grant; the last token relaycheck issued. */
    @Override
    public OutboxSnapshot snapshot(Connection outbox) throws SQLException {
        OutboxSnapshot relay = inner.snapshot(outbox);
        Map<String, Long> tokens = new TreeMap<>();
        try (Statement st = outbox.createStatement(); ResultSet rs = st.executeQuery("SELECT event_id, token FROM " + LEASES)) {
            while (rs.next()) {
                tokens.put(rs.getString(1), rs.getLong(2));
            }
        }
        List<OutboxRow> rows = new ArrayList<>();
        for (OutboxRow r : relay.rows()) {
            Lease l = r.lease();
            rows.add(l == null ? r : r.withLease(new Lease(l.owner(), tokens.getOrDefault(r.id(), 0L), l.expiry())));
        }
        return new OutboxSnapshot(last(outbox, ""), rows);
    }

    @Override
    public boolean ack(Connection outbox, String eventId, long token, int now) throws SQLException {
        return inner.ack(outbox, eventId, token, now);
    }

    @Override
    public boolean ack(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return inner.ack(outbox, eventId, token, now, poller);
    }

    @Override
    public boolean release(Connection outbox, String eventId, long token, int now) throws SQLException {
        return inner.release(outbox, eventId, token, now);
    }

    @Override
    public boolean release(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return inner.release(outbox, eventId, token, now, poller);
    }

    @Override
    public boolean claimsInTwoTransactions() {
        return inner.claimsInTwoTransactions();
    }

    @Override
    public List<Event> claimRead(Connection outbox, ClaimRequest request) throws SQLException {
        return inner.claimRead(outbox, request);
    }

    @Override
    public Set<Invariant> promisedInvariants() {
        return inner.promisedInvariants();
    }

    @Override
    public boolean fencedByOwner() {
        return true;
    }

    /** relaycheck's counter: one for the whole outbox. */
    @Override
    public TokenPolicy tokenPolicy() {
        return TokenPolicy.GLOBAL_COUNTER;
    }

    @Override
    public boolean deliversAndAcks() {
        return inner.deliversAndAcks();
    }

    @Override
    public boolean deliverAndAck(Connection outbox, ClaimedRow held, int now, Delivery delivery) throws SQLException {
        return inner.deliverAndAck(outbox, held, now, delivery);
    }

    @Override
    public boolean readsByCursor() {
        return inner.readsByCursor();
    }

    @Override
    public boolean renews() {
        return inner.renews();
    }

    @Override
    public boolean renew(Connection outbox, String eventId, long token, String poller, int now, int expiry) throws SQLException {
        return inner.renew(outbox, eventId, token, poller, now, expiry);
    }
}
