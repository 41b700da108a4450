package dev.relaycheck.jdbc.world;

import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.db.Tx;
import dev.relaycheck.jdbc.relay.SqlShape;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Outcome;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The consumer's transaction against the consumer database. Correct: INSERT the applied_event marker (its
 * primary key is the dedup: a duplicate key means the event was applied before, so the transaction rolls
 * back and answers DUPLICATE), then the stock UPDATE and the ledger row, then COMMIT. Split variants commit
 * the halves separately, one per step, so a crash or another poller can come between them.
 */
public final class ConsumerSql {
    private final SqlShape shape;
    private final UserCode user;

    public ConsumerSql(SqlShape shape) {
        this(shape, UserCode.NONE);
    }

    /** A consumer whose effect transaction also runs the team's own handler ({@link UserCode#consumer}). */
    public ConsumerSql(SqlShape shape, UserCode user) {
        this.shape = shape;
        this.user = user;
    }

    /** The key the consumer records: the event id, or what a broken relay sends instead. */
    public String markerKey(Event e, long deliveryToken) {
        return switch (shape.markerKey()) {
            case EVENT_ID -> e.id();
            case PAYLOAD -> "payload:" + e.payload();
            case PER_ATTEMPT -> e.id() + "/attempt-t" + deliveryToken;
        };
    }

    /** The consumer transaction, or the first of its two for a split consumer; committed. */
    public Outcome deliver(Connection c, Event e, long token) {
        return deliver(c, e, token, null);
    }

    /** The same, stamping a marker it writes with the tick {@code now} (what a retention policy judges it by). */
    public Outcome deliver(Connection c, Event e, long token, Integer now) {
        try {
            Outcome o = firstTransaction(c, e, token, now);
            if (o instanceof Outcome.Duplicate) {
                c.rollback();
            } else {
                c.commit();
            }
            return o;
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, "deliver " + e.id(), ex);
        }
    }

    /** The second transaction of a split consumer: whichever of marker and effect the first left out. */
    public Outcome deliverSecondHalf(Connection c, Event e, long token) {
        return deliverSecondHalf(c, e, token, null);
    }

    /** The same, stamping a marker it writes with the tick {@code now}. */
    public Outcome deliverSecondHalf(Connection c, Event e, long token, Integer now) {
        try {
            switch (shape.consumer()) {
                case MARKER_THEN_EFFECT -> applyEffect(c, e);
                case EFFECT_THEN_MARKER -> {
                    if (!insertMarker(c, e, token, now)) {
                        c.rollback();
                        return new Outcome.Duplicate(e.id());
                    }
                }
                default -> throw new IllegalStateException("a one-transaction consumer has no second half");
            }
            c.commit();
            return new Outcome.Applied(e.id());
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, "deliver second half " + e.id(), ex);
        }
    }

    /** The consumer transaction runs and then fails before COMMIT (a transient error): everything rolls back. */
    public Outcome deliverAndFail(Connection c, Event e, long token) {
        try {
            firstTransaction(c, e, token, null);
            c.rollback();
            return new Outcome.DeliveryRolledBack(e.id());
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(c, "failing delivery " + e.id(), ex);
        }
    }

    private Outcome firstTransaction(Connection c, Event e, long token, Integer now) throws SQLException {
        switch (shape.consumer()) {
            case ONE_TRANSACTION -> {
                if (!insertMarker(c, e, token, now)) {
                    return new Outcome.Duplicate(e.id());
                }
                applyEffect(c, e);
                return new Outcome.Applied(e.id());
            }
            case MARKER_THEN_EFFECT -> {
                if (!insertMarker(c, e, token, now)) {
                    return new Outcome.Duplicate(e.id());
                }
                return new Outcome.HalfApplied(e.id(), "marker");
            }
            case EFFECT_THEN_MARKER -> {
                if (markerExists(c, e, token)) {
                    return new Outcome.Duplicate(e.id());
                }
                applyEffect(c, e);
                return new Outcome.HalfApplied(e.id(), "effect");
            }
            case NO_DEDUP -> {
                mergeMarker(c, e, token);
                applyEffect(c, e);
                return new Outcome.Applied(e.id());
            }
        }
        throw new IllegalStateException("unknown consumer shape " + shape.consumer());
    }

    /**
     * The effect as a plain handler writes it, on {@code c} in its open transaction, committing nothing: the
     * marker upserted (never rejects, never consulted) and the stock movement. A deliver-and-ack relay's handler
     * applies it through {@link dev.relaycheck.jdbc.adapter.Delivery}.
     */
    public void applyWithoutDedup(Connection c, Event e, long token) throws SQLException {
        mergeMarker(c, e, token);
        applyEffect(c, e);
    }

    /**
     * INSERT the marker, stamped with the tick it is written at ({@code now}; null in a transaction that will roll
     * back); false on a duplicate key (the statement failed, the caller rolls back).
     */
    private boolean insertMarker(Connection c, Event e, long token, Integer now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO applied_event (marker_key, event_id, written_at) VALUES (?, ?, ?)")) {
            ps.setString(1, markerKey(e, token));
            ps.setString(2, e.id());
            if (now == null) {
                ps.setNull(3, java.sql.Types.INTEGER);
            } else {
                ps.setInt(3, now);
            }
            ps.executeUpdate();
            return true;
        } catch (SQLException ex) {
            if (Tx.isUniqueViolation(ex)) {
                return false;
            }
            throw ex;
        }
    }

    private void mergeMarker(Connection c, Event e, long token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(Dialect.of(c).upsertMarker())) {
            ps.setString(1, markerKey(e, token));
            ps.setString(2, e.id());
            ps.executeUpdate();
        }
    }

    private boolean markerExists(Connection c, Event e, long token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM applied_event WHERE marker_key = ?")) {
            ps.setString(1, markerKey(e, token));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void applyEffect(Connection c, Event e) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE stock_balance SET units = units - ? WHERE sku = ?")) {
            ps.setInt(1, e.quantity());
            ps.setString(2, e.aggregate());
            if (ps.executeUpdate() != 1) {
                throw new SQLException("no stock_balance row for " + e.aggregate(), "02000");
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO stock_movement (event_id, sku, seq, quantity) VALUES (?, ?, ?, ?)")) {
            ps.setString(1, e.id());
            ps.setString(2, e.aggregate());
            ps.setInt(3, e.seq());
            ps.setInt(4, e.quantity());
            ps.executeUpdate();
        }
        user.consumer().handle(c, e);
    }
}
