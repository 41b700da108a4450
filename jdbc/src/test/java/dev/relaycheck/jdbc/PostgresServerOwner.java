package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.PostgresServer;

/**
 * A JVM that owns an embedded PostgreSQL server, for {@link PostgresServerLeakTest}: starts it, prints its data
 * directory, then exits normally ({@code exit}) or waits to be killed ({@code wait}).
 */
public final class PostgresServerOwner {
    private PostgresServerOwner() {
    }

    public static void main(String[] args) throws Exception {
        PostgresServer s = PostgresServer.shared();
        System.out.println("data " + s.dataDirectory());
        System.out.flush();
        if (args.length > 0 && args[0].equals("wait")) {
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
