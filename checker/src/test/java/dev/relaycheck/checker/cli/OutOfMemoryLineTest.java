package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker that runs out of memory while the process is already ending on another worker's out-of-memory line adds
 * nothing to it: one line, exit 3. Deterministic, in a child JVM: the second worker fails inside the shutdown the
 * first one started (under load, the workers of {@code runningOutOfMemoryInWorkersIsOneLine} meet the same way).
 */
class OutOfMemoryLineTest {

    /** Two workers out of memory, the second while the shutdown the first began is running. */
    public static final class TwoWorkers {
        public static void main(String[] args) throws InterruptedException {
            OutOfMemory.install();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                Thread late = worker("relaycheck-bfs-2");
                late.start();
                try {
                    late.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            Thread first = worker("relaycheck-bfs-1");
            first.start();
            first.join();
            Thread.sleep(60_000); // the first worker's exit ends the process long before
        }

        private static Thread worker(String name) {
            return new Thread(() -> {
                throw new OutOfMemoryError("Java heap space");
            }, name);
        }
    }

    @Test
    void aSecondWorkerOutOfMemoryDuringTheShutdownAddsNoLine() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), TwoWorkers.class.getName()).start();
        p.getOutputStream().close();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isEqualTo(ExitCodes.INTERNAL);
        assertThat(err.lines().toList()).as(err).hasSize(1);
        assertThat(err).startsWith("relaycheck: out of memory (heap limit ").doesNotContain("OutOfMemoryError");
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
    }
}
