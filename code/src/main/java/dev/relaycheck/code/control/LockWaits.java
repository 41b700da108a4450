package dev.relaycheck.code.control;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which database sessions wait on a lock another session holds, read from the database itself (PostgreSQL's
 * {@code pg_blocking_pids}, H2's {@code INFORMATION_SCHEMA.SESSIONS}), on a connection of relaycheck's own. A
 * statement that waits is told from one that works by what the database says, never by how long it took.
 */
public sealed interface LockWaits permits LockWaits.H2, LockWaits.Query {

    /** The sessions blocked now. */
    Set<Long> blocked() throws SQLException;

    /** The session id of {@code c}, as {@link #blocked} names it. */
    long sessionOf(Connection c) throws SQLException;

    /**
     * Whether {@code t}, running a statement of an embedded database, is in that database's retry of a write that met
     * another transaction's uncommitted row: H2 retries an insert whose key an open transaction holds until that
     * transaction ends, and its sessions view does not show the wait.
     */
    default boolean retriesOnLock(StackTraceElement[] stack) {
        return false;
    }

    static LockWaits h2(Connection observer) {
        return new H2(new Query(observer, "SELECT SESSION_ID FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL",
                "SELECT SESSION_ID()"));
    }

    static LockWaits postgres(Connection observer) {
        return new Query(observer, "SELECT pid FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0",
                "SELECT pg_backend_pid()");
    }

    /**
     * H2: its sessions view, and the frames of its retry loop (a statement that failed on a concurrent update rolls
     * back to its savepoint and runs again), which a statement that does not meet a lock never enters.
     */
    record H2(Query query) implements LockWaits {
        private static final java.util.List<String> RETRY = java.util.List.of("org.h2.command.Command.filterConcurrentUpdate",
                "org.h2.mvstore.tx.Transaction.rollbackToSavepoint", "org.h2.message.DbException.");

        @Override
        public Set<Long> blocked() throws SQLException {
            return query.blocked();
        }

        @Override
        public long sessionOf(Connection c) throws SQLException {
            return query.sessionOf(c);
        }

        @Override
        public boolean retriesOnLock(StackTraceElement[] stack) {
            boolean inStatement = false;
            boolean retrying = false;
            for (StackTraceElement f : stack) {
                String frame = f.getClassName() + "." + f.getMethodName();
                inStatement |= frame.startsWith("org.h2.command.Command.execute");
                retrying |= RETRY.stream().anyMatch(frame::startsWith);
            }
            return inStatement && retrying;
        }
    }

    record Query(Connection observer, String blockedSql, String sessionSql) implements LockWaits {
        @Override
        public Set<Long> blocked() throws SQLException {
            Set<Long> out = new TreeSet<>();
            synchronized (observer) {
                try (Statement st = observer.createStatement(); ResultSet rs = st.executeQuery(blockedSql)) {
                    while (rs.next()) {
                        out.add(rs.getLong(1));
                    }
                }
            }
            return out;
        }

        @Override
        public long sessionOf(Connection c) throws SQLException {
            boolean auto = c.getAutoCommit();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sessionSql)) {
                rs.next();
                return rs.getLong(1);
            } finally {
                if (!auto) {
                    c.rollback(); // nothing was written; the relay starts its transaction clean
                }
            }
        }
    }
}
