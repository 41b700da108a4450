package dev.relaycheck.jdbc.db;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the two sides of the relay live: the outbox database (the producing service's) and the consumer's
 * database, which may be a separate H2 database as a real consumer's often is, or the same one.
 *
 * @param outboxUrl   JDBC URL of the outbox side
 * @param consumerUrl JDBC URL of the consumer side (equal to {@code outboxUrl} for one shared database)
 */
public record Databases(String outboxUrl, String consumerUrl) {

    private static final AtomicLong NAMES = new AtomicLong();

    /** Lock waits longer than H2's 2 s default: a stalled poller in a race must not turn into an error. */
    private static final String MEM_OPTIONS = ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";

    /**
     * WRITE_DELAY=0: H2 otherwise keeps committed changes in memory for up to 500 ms, and a process killed in
     * that window loses transactions it reported as committed (docs/sql-checks.md: what H2 does not prove).
     */
    public static final String DURABLE_FILE_OPTIONS = ";WRITE_DELAY=0;LOCK_TIMEOUT=10000";

    /** Two fresh in-memory databases, one per side. */
    public static Databases separateInMemory() {
        long n = NAMES.incrementAndGet();
        return new Databases("jdbc:h2:mem:relay-outbox-" + n + MEM_OPTIONS, "jdbc:h2:mem:relay-consumer-" + n + MEM_OPTIONS);
    }

    /** One fresh in-memory database holding both sides. */
    public static Databases sharedInMemory() {
        String url = "jdbc:h2:mem:relay-shared-" + NAMES.incrementAndGet() + MEM_OPTIONS;
        return new Databases(url, url);
    }

    /** Two H2 file databases in {@code dir} ({@code outbox.mv.db}, {@code consumer.mv.db}). */
    public static Databases files(Path dir, String options) {
        String base = "jdbc:h2:file:" + dir.toAbsolutePath().toString().replace('\\', '/');
        return new Databases(base + "/outbox" + options, base + "/consumer" + options);
    }

    public boolean shared() {
        return outboxUrl.equals(consumerUrl);
    }

    public Connection openOutbox() throws SQLException {
        return open(outboxUrl);
    }

    public Connection openConsumer() throws SQLException {
        return open(consumerUrl);
    }

    /** Drops H2 in-memory databases (they otherwise live as long as the JVM); closes H2 file databases. */
    public void shutdown() throws SQLException {
        shutdown(outboxUrl);
        if (!shared()) {
            shutdown(consumerUrl);
        }
    }

    private static void shutdown(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("SHUTDOWN");
        }
    }

    private static Connection open(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        c.setAutoCommit(false);
        return c;
    }
}
