package dev.relaycheck.jdbc.db;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * The database kind the SQL checks run a relay on: embedded H2, or PostgreSQL (a server relaycheck starts
 * itself, or one the user runs). It hands out empty databases and takes them back; PostgreSQL's are reused
 * (emptied, never dropped: {@code DROP DATABASE} forces a checkpoint).
 */
public sealed interface DbTarget permits H2Target, PostgresTarget {

    /** {@code h2} or {@code postgres}: the report's column. */
    String id();

    Dialect dialect();

    /** The {@code --db} argument that names this database again (replay lines). */
    String arg();

    /** One line for reports: which database, which version, where. */
    String describe();

    /** Empty databases for one run: the outbox side and the consumer side (one database when {@code shared}). */
    Databases acquire(boolean shared) throws SQLException;

    /** Gives databases back (H2 in memory: dropped; PostgreSQL: kept for the next run). */
    void release(Databases dbs) throws SQLException;

    /**
     * Empty databases that survive the relay process being killed, for the crash-kill check: H2 files under
     * {@code dir} (durable, or with H2's default write delay), the PostgreSQL server's databases (the server
     * survives the relay).
     */
    Databases durable(Path dir, boolean durableCommits) throws SQLException;

    /** The same databases, opened again by a process that must not create them (a restarted relay). */
    Databases reopen(Databases created);

    static DbTarget h2() {
        return H2Target.INSTANCE;
    }

    /** {@code h2}, {@code postgres} (relaycheck starts its own server) or a {@code jdbc:postgresql:} URL. */
    static DbTarget named(String db) throws IOException {
        if (db.equals("h2")) {
            return h2();
        }
        if (db.equals("postgres")) {
            return PostgresTarget.managed();
        }
        if (db.startsWith("jdbc:postgresql:")) {
            return PostgresTarget.external(db);
        }
        throw new IllegalArgumentException("unknown --db '" + db + "' (h2, postgres or a jdbc:postgresql:// URL)");
    }
}
