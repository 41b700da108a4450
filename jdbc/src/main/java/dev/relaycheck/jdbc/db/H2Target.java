package dev.relaycheck.jdbc.db;

import java.nio.file.Path;
import java.sql.SQLException;

/** Embedded H2: fresh in-memory databases per run, files for the crash-kill check. */
public final class H2Target implements DbTarget {
    static final H2Target INSTANCE = new H2Target();

    /** H2 file options without WRITE_DELAY=0: the durability negative control. */
    static final String DELAYED_FILE_OPTIONS = ";LOCK_TIMEOUT=10000";

    private H2Target() {
    }

    @Override
    public String id() {
        return "h2";
    }

    @Override
    public String arg() {
        return "h2";
    }

    @Override
    public Dialect dialect() {
        return Dialect.H2;
    }

    @Override
    public String describe() {
        return "H2 " + org.h2.engine.Constants.VERSION + " embedded";
    }

    @Override
    public Databases acquire(boolean shared) {
        return shared ? Databases.sharedInMemory() : Databases.separateInMemory();
    }

    @Override
    public void release(Databases dbs) throws SQLException {
        dbs.shutdown();
    }

    @Override
    public Databases durable(Path dir, boolean durableCommits) {
        return Databases.files(dir, durableCommits ? Databases.DURABLE_FILE_OPTIONS : DELAYED_FILE_OPTIONS);
    }

    @Override
    public Databases reopen(Databases created) {
        return new Databases(created.outboxUrl() + ";IFEXISTS=TRUE", created.consumerUrl() + ";IFEXISTS=TRUE");
    }

    @Override
    public String toString() {
        return id();
    }
}
