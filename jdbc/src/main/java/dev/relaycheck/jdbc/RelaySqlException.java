package dev.relaycheck.jdbc;

import java.sql.SQLException;

/** A database error inside a relay step; the step's transaction was rolled back before this is thrown. */
public final class RelaySqlException extends RuntimeException {
    public RelaySqlException(String what, SQLException cause) {
        super(what + ": " + cause.getMessage(), cause);
    }

    /** SQLState of the underlying error (e.g. 23505 unique violation, HYT00 lock timeout). */
    public String sqlState() {
        return ((SQLException) getCause()).getSQLState();
    }
}
