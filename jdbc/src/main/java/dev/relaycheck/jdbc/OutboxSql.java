package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.SqlShape.LeaseCheck;
import dev.relaycheck.jdbc.SqlShape.Token;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.Outcome.Grant;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The relay's statements against the outbox database: claim, fenced acknowledgement, fenced release. The
 * clock is a parameter ({@code now}), never the database's or the JVM's wall clock, so a run is a function
 * of its schedule.
 */
public final class OutboxSql {
    private final SqlShape shape;
    private final String candidates;
    private final String conditionalLease;
    private final String blindLease;
    private final String ack;
    private final String release;

    /** A row a claim may take, with what the claim must know about it. */
    public record Candidate(Event event, boolean hadLease) {
    }

    /** What a claim leased, and the events it read with the rows (the payloads the poller will deliver). */
    public record Claim(Outcome.Claimed outcome, List<Event> events) {
    }

    public OutboxSql(SqlShape shape, ClaimForm form) {
        this.shape = shape;
        String lockClause = shape.claimShape() == SqlShape.ClaimShape.ATOMIC && form == ClaimForm.SKIP_LOCKED
                ? " FOR UPDATE SKIP LOCKED" : "";
        this.candidates = "SELECT o.event_id, o.aggregate_id, o.seq, o.quantity, o.payload, o.lease_token FROM outbox o WHERE "
                + claimable() + " ORDER BY o.seq FETCH FIRST ? ROWS ONLY" + lockClause;
        String token = shape.token() == Token.FRESH ? "?" : "COALESCE(o.lease_token, ?)";
        this.conditionalLease = "UPDATE outbox o SET lease_owner = ?, lease_token = " + token + ", lease_expiry = ? "
                + "WHERE o.event_id = ? AND " + claimable();
        this.blindLease = "UPDATE outbox o SET lease_owner = ?, lease_token = " + token + ", lease_expiry = ? WHERE o.event_id = ?";
        this.ack = "UPDATE outbox SET status = 'DELIVERED', lease_owner = NULL, lease_token = NULL, lease_expiry = NULL "
                + "WHERE event_id = ?" + (shape.ackFenced() ? " AND lease_token = ?" : "") + " AND status = 'PENDING'";
        this.release = "UPDATE outbox SET lease_owner = NULL, lease_token = NULL, lease_expiry = NULL "
                + "WHERE event_id = ?" + (shape.releaseFenced() ? " AND lease_token = ?" : "") + " AND status = 'PENDING'";
    }

    /** The claim condition on row {@code o}; it has one parameter ({@code now}) iff {@link #usesNow()}. */
    private String claimable() {
        StringBuilder w = new StringBuilder("o.status = 'PENDING'");
        switch (shape.leaseCheck()) {
            case EXPIRY -> w.append(" AND (o.lease_token IS NULL OR o.lease_expiry <= ?)");
            case OWNER_ONLY_NO_EXPIRY -> w.append(" AND o.lease_token IS NULL");
            case IGNORED -> { }
        }
        if (shape.headRule()) {
            // head-of-aggregate: no earlier PENDING row of the same aggregate (what keeps per-aggregate order)
            w.append(" AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.aggregate_id = o.aggregate_id"
                    + " AND e.status = 'PENDING' AND e.seq < o.seq)");
        }
        return w.toString();
    }

    private boolean usesNow() {
        return shape.leaseCheck() == LeaseCheck.EXPIRY;
    }

    private Integer expiry(int now, int leaseTicks) {
        return shape.leaseCheck() == LeaseCheck.OWNER_ONLY_NO_EXPIRY ? null : now + leaseTicks;
    }

    /**
     * An atomic claim: select up to {@code batch} claimable rows in sequence order and lease each with a
     * conditional UPDATE that re-checks the claim condition, issuing fresh tokens from the counter, all in
     * one transaction. {@code pauses} may stall it between the read and the writes.
     */
    public Claim claim(Connection c, String poller, int now, int batch, int leaseTicks, Pauses pauses) {
        try {
            // a candidate another claimer took meanwhile fails the conditional UPDATE and is skipped: the claim
            // then takes fewer rows than it could, and the next claim takes the rest
            List<Candidate> seen = select(c, now, batch);
            pauses.at(Pauses.Point.MID_CLAIM);
            List<Grant> grants = new ArrayList<>();
            List<Event> events = new ArrayList<>();
            if (!seen.isEmpty()) {
                long last = lockCounter(c);
                for (Candidate cand : seen) {
                    Grant g = lease(c, conditionalLease, true, cand, poller, now, leaseTicks, last);
                    if (g != null) {
                        grants.add(g);
                        events.add(cand.event());
                        last = Math.max(last, g.token());
                    }
                }
                writeCounter(c, last);
            }
            c.commit();
            return new Claim(new Outcome.Claimed(grants), events);
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, poller + " claim", ex);
        }
    }

    /** The read half of a check-then-act claim: a plain SELECT, no lock, nothing written. */
    public List<Candidate> readClaimable(Connection c, int now, int batch) {
        try {
            List<Candidate> seen = select(c, now, batch);
            c.commit();
            return seen;
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, "claim read", ex);
        }
    }

    /** The write half of a check-then-act claim: UPDATE by id, no re-check of what was read earlier. */
    public Outcome.Claimed writeLeases(Connection c, String poller, List<Candidate> read, int now, int leaseTicks) {
        try {
            long last = lockCounter(c);
            List<Grant> grants = new ArrayList<>();
            for (Candidate cand : read) {
                Grant g = lease(c, blindLease, false, new Candidate(cand.event(), currentToken(c, cand.event().id()) >= 0),
                        poller, now, leaseTicks, last);
                if (g != null) {
                    grants.add(g);
                    last = Math.max(last, g.token());
                }
            }
            writeCounter(c, last);
            c.commit();
            return new Outcome.Claimed(grants);
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, poller + " claim write", ex);
        }
    }

    private List<Candidate> select(Connection c, int now, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(candidates)) {
            int i = 1;
            if (usesNow()) {
                ps.setInt(i++, now);
            }
            ps.setInt(i, limit);
            List<Candidate> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Event e = new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                    out.add(new Candidate(e, rs.getObject(6) != null));
                }
            }
            return out;
        }
    }

    /** Writes one lease; returns its grant, or null when the conditional UPDATE's re-check refused the row. */
    private Grant lease(Connection c, String sql, boolean conditional, Candidate cand, String poller, int now,
                        int leaseTicks, long last) throws SQLException {
        long fresh = last + 1;
        Integer expiry = expiry(now, leaseTicks);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, poller);
            ps.setLong(2, fresh);
            ps.setObject(3, expiry);
            ps.setString(4, cand.event().id());
            if (conditional && usesNow()) {
                ps.setInt(5, now);
            }
            if (ps.executeUpdate() == 0) {
                return null;
            }
        }
        long token = shape.token() == Token.FRESH ? fresh : currentToken(c, cand.event().id());
        return new Grant(cand.event().id(), token, expiry == null ? Lease.NEVER : expiry, cand.hadLease());
    }

    private static long lockCounter(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT last_token FROM fencing_token WHERE id = 1 FOR UPDATE");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void writeCounter(Connection c, long last) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE fencing_token SET last_token = ? WHERE id = 1")) {
            ps.setLong(1, last);
            ps.executeUpdate();
        }
    }

    /** The row's current token, or -1 when it holds no lease (or does not exist). */
    static long currentToken(Connection c, String eventId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT lease_token FROM outbox WHERE event_id = ?")) {
            ps.setString(1, eventId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return -1;
                }
                long t = rs.getLong(1);
                return rs.wasNull() ? -1 : t;
            }
        }
    }

    /** The fenced acknowledgement: 1 row, ACKED; 0 rows, STALE and nothing changed. */
    public Outcome ack(Connection c, String eventId, long token) {
        return fenced(c, ack, shape.ackFenced(), eventId, token, true);
    }

    /** The fenced release after a failed delivery. */
    public Outcome release(Connection c, String eventId, long token) {
        return fenced(c, release, shape.releaseFenced(), eventId, token, false);
    }

    /** The acknowledgement's UPDATE runs, then the connection is lost before COMMIT: nothing is kept. */
    public void ackLostBeforeCommit(Connection c, String eventId, long token) {
        try (PreparedStatement ps = c.prepareStatement(ack)) {
            ps.setString(1, eventId);
            if (shape.ackFenced()) {
                ps.setLong(2, token);
            }
            ps.executeUpdate();
            c.rollback();
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, "lost ack " + eventId, ex);
        }
    }

    private Outcome fenced(Connection c, String sql, boolean withToken, String eventId, long token, boolean isAck) {
        try {
            int n;
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, eventId);
                if (withToken) {
                    ps.setLong(2, token);
                }
                n = ps.executeUpdate();
            }
            if (n == 1) {
                c.commit();
                return isAck ? new Outcome.Acked(eventId, token) : new Outcome.Released(eventId, token);
            }
            long current = currentToken(c, eventId); // only for the report: which token the row holds
            c.commit();
            return new Outcome.Stale(eventId, token, current);
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, (isAck ? "ack " : "release ") + eventId, ex);
        }
    }
}
