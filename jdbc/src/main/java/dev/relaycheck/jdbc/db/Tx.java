package dev.relaycheck.jdbc.db;

import java.sql.Connection;
import java.sql.SQLException;

/** Transaction helpers. */
public final class Tx {
    private Tx() {
    }

    /** Rolls back after a failed statement and wraps the error; a failed rollback is attached, not lost. */
    public static RelaySqlException rollbackAndWrap(Connection c, String what, SQLException ex) {
        rollbackQuietly(c, ex);
        return new RelaySqlException(what, ex);
    }

    public static void rollbackQuietly(Connection c, Throwable cause) {
        try {
            c.rollback();
        } catch (SQLException r) {
            cause.addSuppressed(r);
        }
    }

    public static boolean isUniqueViolation(SQLException ex) {
        return "23505".equals(ex.getSQLState());
    }
}
