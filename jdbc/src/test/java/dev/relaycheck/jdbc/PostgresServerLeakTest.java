package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.PostgresServer;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An embedded server dies with the JVM that owns it: after a normal exit (the shutdown hook) and after a SIGKILL,
 * which runs no hook (the watchdog outside the JVM's process tree). Each JVM here is a real child that starts its
 * own server; the test reads the server's processes from the machine's process table.
 */
class PostgresServerLeakTest {
    private static final long GONE_WITHIN_SECONDS = 60;

    @Test
    void theServerStopsWhenItsJvmExits() throws Exception {
        Process owner = owner("exit");
        Path data = dataDirectory(owner);
        assertThat(owner.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(owner.exitValue()).isZero();
        assertGone(data);
    }

    @Test
    void theServerStopsWhenItsJvmIsKilled() throws Exception {
        Process owner = owner("wait");
        Path data = dataDirectory(owner);
        assertThat(PostgresServer.processesOf(data)).as("the server's processes while its JVM lives").isNotEmpty();
        owner.destroyForcibly(); // SIGKILL: no shutdown hook runs
        assertThat(owner.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertGone(data);
    }

    private static Process owner(String mode) throws Exception {
        PostgresForTests.target(); // skips (or fails under CI) where no server can run, as every PostgreSQL test
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), PostgresServerOwner.class.getName(), mode);
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static Path dataDirectory(Process owner) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("data ")) {
                return Path.of(line.substring(5));
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the owner JVM printed no data directory:\n" + seen);
    }

    /** Polls the process table: how fast a stop ends its processes is the machine's, not a verdict. */
    private static void assertGone(Path data) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GONE_WITHIN_SECONDS);
        while (System.nanoTime() < deadline && (!PostgresServer.processesOf(data).isEmpty() || Files.exists(data))) {
            Thread.sleep(200);
        }
        assertThat(PostgresServer.processesOf(data)).as("postgres processes of " + data).isEmpty();
        assertThat(data).doesNotExist();
    }
}
