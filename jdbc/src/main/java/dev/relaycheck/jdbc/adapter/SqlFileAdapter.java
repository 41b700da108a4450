package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic.TokenPolicy;
import dev.relaycheck.model.RowStatus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link RelayAdapter} that runs a {@link RelaySqlFile}. The claim: {@code claim-select} the candidates;
 * if there are any, {@code claim-token} (the last token, locked), then per candidate {@code claim-lease}
 * with the next token and, when it leased the row, {@code claim-granted} to read back the token and expiry
 * the row now holds; finally {@code claim-token-write} with the highest token issued. A relay fenced by owner or by
 * row version has no counter: its claim is {@code claim-select}, {@code claim-lease} and {@code claim-granted}, and
 * its snapshot tells a lease by its owner. The file's options are the adapter's declarations. Each statement runs
 * in the dialect of the connection it is given.
 */
public final class SqlFileAdapter implements RelayAdapter {
    private final RelaySqlFile file;

    public SqlFileAdapter(RelaySqlFile file) {
        this.file = file;
    }

    public RelaySqlFile file() {
        return file;
    }

    @Override
    public void createSchema(Connection outbox) throws SQLException {
        runAll(outbox, "schema");
    }

    @Override
    public void clear(Connection outbox) throws SQLException {
        runAll(outbox, "clear");
    }

    @Override
    public void enqueue(Connection outbox, Event e) throws SQLException {
        update(outbox, "produce", params("event", e.id(), "aggregate", e.aggregate(), "seq", e.seq(), "quantity", e.quantity(),
                "payload", e.payload()));
    }

    @Override
    public List<ClaimedRow> claim(Connection outbox, ClaimRequest r) throws SQLException {
        return lease(outbox, r, select(outbox, r));
    }

    /** A relay file whose claim-select reads {@code :cursor} keeps a cursor (relaycheck moves it). */
    @Override
    public boolean readsByCursor() {
        return file.uses("claim-select", "cursor");
    }

    @Override
    public boolean claimsInTwoTransactions() {
        return file.claimsInTwoTransactions();
    }

    @Override
    public boolean fencedByOwner() {
        return file.fencedByOwner();
    }

    @Override
    public TokenPolicy tokenPolicy() {
        return file.fencedByRowVersion() ? TokenPolicy.PER_ROW_VERSION : TokenPolicy.GLOBAL_COUNTER;
    }

    @Override
    public Set<Invariant> promisedInvariants() {
        return file.promisedInvariants();
    }

    @Override
    public List<Event> claimRead(Connection outbox, ClaimRequest r) throws SQLException {
        return select(outbox, r);
    }

    @Override
    public List<ClaimedRow> claimWrite(Connection outbox, ClaimRequest r, List<Event> read) throws SQLException {
        return lease(outbox, r, read);
    }

    private List<Event> select(Connection c, ClaimRequest r) throws SQLException {
        List<Event> out = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, "claim-select", params("now", r.now(), "batch", r.batch(), "poller", r.poller(),
                "lease_ticks", r.leaseTicks(), "cursor", r.cursor(), "app_now", r.appNow())); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(event(rs));
            }
        }
        return out;
    }

    private List<ClaimedRow> lease(Connection c, ClaimRequest r, List<Event> candidates) throws SQLException {
        List<ClaimedRow> grants = new ArrayList<>();
        if (candidates.isEmpty()) {
            return grants;
        }
        long last = file.countsTokens() ? number(c, "claim-token", params("now", r.now(), "poller", r.poller())) : 0;
        for (Event e : candidates) {
            int n = update(c, "claim-lease", params("event", e.id(), "poller", r.poller(), "token", last + 1,
                    "expiry", r.expiry(), "now", r.now(), "lease_ticks", r.leaseTicks(), "app_now", r.appNow()));
            if (n == 0) {
                continue; // taken by another claimer since it was read: the next claim takes the rest
            }
            try (PreparedStatement ps = prepare(c, "claim-granted", params("event", e.id(), "poller", r.poller(), "now", r.now()));
                 ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("claim-granted found no row for " + e.id() + " right after claim-lease leased it");
                }
                long token = file.fencedByOwner() ? 0 : rs.getLong("lease_token"); // relaycheck issues an owner-fenced relay's
                int expiry = rs.getInt("lease_expiry");
                grants.add(new ClaimedRow(e, token, rs.wasNull() ? Lease.NEVER : expiry));
                last = Math.max(last, token);
            }
        }
        if (file.countsTokens()) {
            update(c, "claim-token-write", params("token", last, "now", r.now(), "poller", r.poller()));
        }
        return grants;
    }

    @Override
    public boolean ack(Connection outbox, String eventId, long token, int now) throws SQLException {
        return ack(outbox, eventId, token, now, "");
    }

    /** True when the ack changed any row (an ack fenced by owner or by batch may mark several). */
    @Override
    public boolean ack(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return update(outbox, "ack", params("event", eventId, "token", token, "now", now, "poller", poller)) >= 1;
    }

    @Override
    public boolean release(Connection outbox, String eventId, long token, int now) throws SQLException {
        return release(outbox, eventId, token, now, "");
    }

    @Override
    public boolean release(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return update(outbox, "release", params("event", eventId, "token", token, "now", now, "poller", poller)) == 1;
    }

    @Override
    public boolean renews() {
        return file.has("renew");
    }

    @Override
    public boolean renew(Connection outbox, String eventId, long token, String poller, int now, int expiry) throws SQLException {
        return update(outbox, "renew", params("event", eventId, "token", token, "now", now, "poller", poller, "expiry", expiry,
                "lease_ticks", expiry - now)) == 1;
    }

    @Override
    public boolean cleansUp() {
        return file.has("cleanup");
    }

    /** The relay file's {@code cleanup}: one statement, or several (an archive copy, then the delete). */
    @Override
    public void cleanup(Connection outbox, int now) throws SQLException {
        for (NamedSql sql : file.statement("cleanup", Dialect.of(outbox))) {
            try (PreparedStatement ps = outbox.prepareStatement(sql.jdbc())) {
                sql.bind(ps, params("now", now));
                ps.executeUpdate();
            }
        }
    }

    @Override
    public OutboxSnapshot snapshot(Connection outbox) throws SQLException {
        List<OutboxRow> rows = new ArrayList<>();
        try (PreparedStatement ps = prepare(outbox, "snapshot", Map.of()); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(row(rs));
            }
        }
        return new OutboxSnapshot(file.countsTokens() ? number(outbox, "snapshot-token", Map.of()) : 0, rows);
    }

    /**
     * One row of {@code snapshot}. A relay with a token counter holds a lease while its token is set; one fenced by owner
     * or by row version while its owner is; a row version relay's {@code version} is the row's version and, while
     * leased, its lease's token (0 on a delivered row, as the model keeps it).
     */
    private OutboxRow row(ResultSet rs) throws SQLException {
        RowStatus status = RowStatus.valueOf(rs.getString("status").strip());
        long version = file.fencedByRowVersion() ? rs.getLong("version") : 0;
        long token = file.fencedByRowVersion() ? version : file.fencedByOwner() ? 0 : rs.getLong("lease_token");
        boolean leased = file.countsTokens() ? !rs.wasNull() : rs.getString("lease_owner") != null;
        Lease lease = null;
        if (leased) {
            int expiry = rs.getInt("lease_expiry");
            lease = new Lease(rs.getString("lease_owner"), token, rs.wasNull() ? Lease.NEVER : expiry);
        }
        return new OutboxRow(event(rs), status, lease, status == RowStatus.DELIVERED ? 0 : version);
    }

    private static Event event(ResultSet rs) throws SQLException {
        return new Event(rs.getString("event_id"), rs.getString("aggregate_id"), rs.getInt("seq"), rs.getInt("quantity"),
                rs.getString("payload"));
    }

    // ------------------------------------------------------------------ running named statements

    private static Map<String, Object> params(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private NamedSql single(Connection c, String name) throws SQLException {
        List<NamedSql> parts = file.statement(name, Dialect.of(c));
        if (parts.size() != 1) {
            throw new SQLException("statement '" + name + "' must be one statement, it has " + parts.size());
        }
        return parts.get(0);
    }

    private PreparedStatement prepare(Connection c, String name, Map<String, Object> values) throws SQLException {
        NamedSql sql = single(c, name);
        PreparedStatement ps = c.prepareStatement(sql.jdbc());
        try {
            sql.bind(ps, values);
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
        return ps;
    }

    private int update(Connection c, String name, Map<String, Object> values) throws SQLException {
        try (PreparedStatement ps = prepare(c, name, values)) {
            return ps.executeUpdate();
        }
    }

    private long number(Connection c, String name, Map<String, Object> values) throws SQLException {
        try (PreparedStatement ps = prepare(c, name, values); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("statement '" + name + "' returned no row");
            }
            return rs.getLong(1);
        }
    }

    private void runAll(Connection c, String name) throws SQLException {
        for (NamedSql sql : file.statement(name, Dialect.of(c))) {
            try (PreparedStatement ps = c.prepareStatement(sql.jdbc())) {
                ps.execute();
            }
        }
    }
}
