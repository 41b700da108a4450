package dev.relaycheck.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** Transaction helpers. */
final class Tx {
    private Tx() {
    }

    /** Rolls back after a failed statement and wraps the error; a failed rollback is attached, not lost. */
    static RelaySqlException rollbackAndWrap(Connection c, String what, SQLException ex) {
        rollbackQuietly(c, ex);
        return new RelaySqlException(what, ex);
    }

    static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException r) {
            cause.addSuppressed(r);
        }
    }

    static boolean isUniqueViolation(SQLException ex) {
        return "23505".equals(ex.getSQLState());
    }
}
