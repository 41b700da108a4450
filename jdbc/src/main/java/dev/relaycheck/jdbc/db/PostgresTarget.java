package dev.relaycheck.jdbc.db;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL: relaycheck's own server ({@link PostgresServer}) or one the user runs ({@code --db
 * jdbc:postgresql://...}). Each "database" the checks use is a schema ({@code relaycheck_N}) of the one
 * database the URL names, selected with the driver's {@code currentSchema}: a schema is created and emptied
 * in milliseconds, where {@code CREATE}/{@code DROP DATABASE} cost a checkpoint. Schemas are reused: a run
 * gets them emptied ({@code DROP SCHEMA ... CASCADE; CREATE SCHEMA}).
 */
public final class PostgresTarget implements DbTarget {
    private static final String SCHEMA_PREFIX = "relaycheck_";

    private final String url;
    private final String arg;
    private final String describe;
    private final Deque<String> free = new ArrayDeque<>();
    private final Map<Databases, List<String>> lent = new IdentityHashMap<>();
    private int created;

    private PostgresTarget(String url, String arg, String describe) {
        this.url = url;
        this.arg = arg;
        this.describe = describe;
    }

    /** relaycheck's own server, started on first use (an IOException from the start says why it could not). */
    public static PostgresTarget managed() throws java.io.IOException {
        PostgresServer s = PostgresServer.shared();
        return new PostgresTarget(s.url(), "postgres", "PostgreSQL " + s.version() + " (relaycheck's own server, 127.0.0.1:" + s.port() + ")");
    }

    /** A server the user runs; the URL names the database (and user, password) to use. */
    public static PostgresTarget external(String jdbcUrl) {
        return new PostgresTarget(jdbcUrl, jdbcUrl, "PostgreSQL at " + jdbcUrl.replaceAll("password=[^&]*", "password=***"));
    }

    public String url() {
        return url;
    }

    @Override
    public String id() {
        return "postgres";
    }

    @Override
    public String arg() {
        return arg;
    }

    @Override
    public Dialect dialect() {
        return Dialect.POSTGRES;
    }

    @Override
    public String describe() {
        return describe;
    }

    @Override
    public synchronized Databases acquire(boolean shared) throws SQLException {
        String outbox = emptySchema();
        String consumer = shared ? outbox : emptySchema();
        Databases d = new Databases(schemaUrl(outbox), schemaUrl(consumer));
        lent.put(d, shared ? List.of(outbox) : List.of(outbox, consumer));
        return d;
    }

    @Override
    public synchronized void release(Databases dbs) {
        List<String> schemas = lent.remove(dbs);
        if (schemas != null) {
            free.addAll(schemas);
        }
    }

    @Override
    public Databases durable(Path dir, boolean durableCommits) throws SQLException {
        return acquire(false); // the server outlives the killed relay; commits are durable once acknowledged
    }

    @Override
    public Databases reopen(Databases created) {
        return created;
    }

    private String emptySchema() throws SQLException {
        String name = free.isEmpty() ? SCHEMA_PREFIX + (++created) : free.pop();
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
            st.execute("CREATE SCHEMA " + name);
        }
        return name;
    }

    private String schemaUrl(String schema) {
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    @Override
    public String toString() {
        return id();
    }
}
