package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * SIGTERM to a running {@code check} takes its whole process tree down: the real CLI in a child JVM runs the
 * jcstress curriculum (a real jcstress JVM that forks its own), and is terminated once jcstress is running.
 */
class ChildTreeTest {
    /** Generous bounds against a loaded machine; the test fails only if they pass with a process still alive. */
    private static final long START_SECONDS = 300;
    private static final long DEATH_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void sigtermToCheckKillsJcstressAndItsForks() throws Exception {
        Path home = Path.of("..").toAbsolutePath().normalize();
        assumeTrue(Files.isRegularFile(home.resolve("stress-tests/target/jcstress.jar")),
                "needs stress-tests/target/jcstress.jar (mvn -DskipTests install builds it)");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Drelaycheck.home=" + home, "-cp", System.getProperty("java.class.path"), RelaycheckCli.class.getName(),
                "check", "--only", "jcstress", "-s", "stale-ack-after-expiry", "--budget", "quick"));
        Path err = dir.resolve("stderr.txt");
        Process check = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(false)
                .redirectOutput(dir.resolve("stdout.txt").toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        Set<ProcessHandle> seen = new LinkedHashSet<>();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            // wait for jcstress's own forks: the grandchildren are what a naive kill leaves behind. One snapshot both
            // ends the wait and is asserted on: jcstress's short-lived probe forks may be gone by a second look
            List<ProcessHandle> alive = List.of();
            while (check.isAlive() && System.nanoTime() < deadline && alive.size() < 2) {
                Thread.sleep(200);
                alive = check.descendants().toList();
                seen.addAll(alive);
            }
            assertThat(check.isAlive()).as("check still running: %s", Files.readString(err)).isTrue();
            assertThat(alive).as("jcstress and a fork of it, alive together").hasSizeGreaterThanOrEqualTo(2);
            assertThat(Files.readString(err)).as("jcstress shows its progress").contains("[jcstress] 0 tests");

            check.destroy(); // SIGTERM
            assertThat(check.waitFor(DEATH_SECONDS, TimeUnit.SECONDS)).isTrue();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEATH_SECONDS);
            while (seen.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < until) {
                Thread.sleep(200);
            }
            assertThat(seen.stream().filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + p.info().commandLine().orElse("")))
                    .as("processes left behind").isEmpty();
        } finally {
            check.descendants().forEach(ProcessHandle::destroyForcibly);
            check.destroyForcibly();
            seen.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
