package dev.relaycheck.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server that relaycheck starts itself from the machine's server binaries (Debian's
 * {@code postgresql} package: {@code /usr/lib/postgresql/<version>/bin}, or {@code RELAYCHECK_PG_BIN}), in a
 * fresh directory under the system temp directory, on a free port of 127.0.0.1, and stops afterwards
 * ({@code pg_ctl stop -m immediate}, then the directory is deleted). As root the server runs as the
 * {@code postgres} user ({@code runuser}; PostgreSQL refuses to run as root), which owns the directory.
 * One server per JVM, started on first use and stopped when the JVM exits.
 */
public final class PostgresServer {
    /** The database relaycheck's schemas live in, and the role it connects as (trust authentication, local only). */
    public static final String DATABASE = "relaycheck";
    public static final String USER = "relay";
    private static final String ENV_BIN = "RELAYCHECK_PG_BIN";
    private static final long COMMAND_SECONDS = 120;

    private static PostgresServer shared;

    private final Path bin;
    private final Path dir;
    private final int port;
    private final boolean asPostgresUser;
    private final String version;

    private PostgresServer(Path bin, Path dir, int port, boolean asPostgresUser, String version) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
        this.version = version;
    }

    /** The server binaries, if this machine has them. */
    public static Optional<Path> binaries() {
        String env = System.getenv(ENV_BIN);
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            return Files.isExecutable(p.resolve("initdb")) ? Optional.of(p) : Optional.empty();
        }
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb"))
                            && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(PostgresServer::majorVersion));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static int majorVersion(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Why this machine cannot start a server, in one line; empty when it can. */
    public static Optional<String> unavailable() {
        if (binaries().isEmpty()) {
            return Optional.of("no PostgreSQL server binaries (install Debian's postgresql package, or set " + ENV_BIN
                    + " to the directory holding initdb and pg_ctl)");
        }
        if (isRoot() && !Files.isExecutable(Path.of("/usr/sbin/runuser")) && !Files.isExecutable(Path.of("/sbin/runuser"))) {
            return Optional.of("running as root without runuser: PostgreSQL must run as the postgres user");
        }
        return Optional.empty();
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The JVM's server, started on first call. */
    public static synchronized PostgresServer shared() throws IOException {
        if (shared == null) {
            shared = start();
            PostgresServer s = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop, "relaycheck-postgres-stop"));
        }
        return shared;
    }

    /** Starts a fresh server; an IOException says in one line why it could not. */
    public static PostgresServer start() throws IOException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new IOException("cannot start PostgreSQL: " + why.get());
        }
        Path bin = binaries().orElseThrow();
        boolean root = isRoot();
        Path dir = Files.createTempDirectory("relaycheck-pg-");
        int port = freePort();
        PostgresServer s = new PostgresServer(bin, dir, port, root, bin.getParent().getFileName().toString());
        try {
            if (root) {
                s.run(List.of("chown", "postgres:postgres", dir.toString()), false);
            }
            s.run(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
                    "--auth=trust", "-E", "UTF8", "--no-sync"), true);
            // max_connections: every poller holds two connections, and the conformance check keeps one world per scenario.
            // synchronous_commit=off: a commit returns before its WAL reaches the disk, which only a crash of the server
            // itself could lose; the checks kill the relay, never the server, and run several times faster for it.
            s.run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l", dir.resolve("log").toString(),
                    "-w", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=400"
                            + " -c synchronous_commit=off", "start"), true);
            s.run(List.of(bin.resolve("psql").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", USER, "-d", "postgres",
                    "-q", "-c", "CREATE DATABASE " + DATABASE), true);
        } catch (IOException e) {
            s.stop();
            throw e;
        }
        return s;
    }

    /** The JDBC URL of relaycheck's database on this server. */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?user=" + USER;
    }

    public int port() {
        return port;
    }

    public String version() {
        return version;
    }

    /** Stops the server at once (its data is throw-away) and deletes its directory. */
    public synchronized void stop() {
        try {
            if (Files.isDirectory(dir.resolve("data"))) {
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop"), true);
            }
        } catch (IOException ignored) {
            // not running: nothing to stop
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException ignored) {
            // a leftover temp directory is harmless; Files.walk reports a file that vanished while it walked (the
            // server's last files going away as it stops) as an UncheckedIOException, which once escaped this
            // shutdown hook and turned a finished run into an error at exit
        }
    }

    /**
     * A server command (initdb, pg_ctl) ran past its time limit: the machine, not the relay, so callers report
     * that no check ran (the CLI's exit 3, a test skipped as inconclusive), never a verdict.
     */
    public static final class TimedOut extends IOException {
        TimedOut(String message) {
            super(message);
        }
    }

    private void run(List<String> command, boolean asServerUser) throws IOException {
        List<String> full = new ArrayList<>();
        if (asServerUser && asPostgresUser) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path log = Files.createTempFile("relaycheck-pg-cmd", ".log");
        try {
            Process p = new ProcessBuilder(full).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new TimedOut(Path.of(command.get(0)).getFileName() + " did not finish within " + COMMAND_SECONDS
                        + " s (a loaded machine?): no server, so no verdict");
            }
            if (p.exitValue() != 0) {
                String out = Files.readString(log, StandardCharsets.UTF_8).strip().replaceAll("\\s*\\n\\s*", " | ");
                throw new IOException(Path.of(command.get(0)).getFileName() + " failed (exit " + p.exitValue() + "): " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL " + version + " on 127.0.0.1:" + port;
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e.getMessage(), e);
    }
}
