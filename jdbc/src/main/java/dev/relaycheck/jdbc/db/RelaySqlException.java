package dev.relaycheck.jdbc.db;

import java.sql.SQLException;

/** A database error inside a relay step; the step's transaction was rolled back before this is thrown. */
public final class RelaySqlException extends RuntimeException {
    public RelaySqlException(String what, SQLException cause) {
        super(what + ": " + cause.getMessage(), cause);
    }

    /**
     * Whether the database ended the session (PostgreSQL's idle_in_transaction_session_timeout: 25P03; a
     * terminated backend: 57P01; a connection gone: class 08): the transaction died with it, as if the poller had
     * crashed there. Not the relay's error.
     */
    public boolean sessionEndedByDatabase() {
        String state = sqlState();
        return state != null && (state.equals("25P03") || state.equals("57P01") || state.startsWith("08"));
    }

    /**
     * Whether a lock wait ran past the database's limit (H2's LOCK_TIMEOUT: HYT00; PostgreSQL's lock_timeout:
     * 55P03): time-based, so a loaded machine can cause it; the step's transaction rolled back, which a poller
     * survives as a crash there. Not the relay's error.
     */
    public boolean lockWaitTimedOut() {
        String state = sqlState();
        return "HYT00".equals(state) || "55P03".equals(state);
    }

    /** SQLState of the underlying error (e.g. 23505 unique violation, HYT00 lock timeout). */
    public String sqlState() {
        return ((SQLException) getCause()).getSQLState();
    }
}
