package dev.relaycheck.checker.check;

import dev.relaycheck.checker.report.CheckerRows;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a checker in its own JVM, output to a log file, with a time limit; kills the whole process tree when
 * it ends or times out (a process killed from outside is the CLI's shutdown hook's: cli.ChildProcesses).
 */
final class Subprocess {
    private static final long POLL_MILLIS = 1000;

    private Subprocess() {
    }

    /** Follows a running checker: each new line of its log, and a tick every second in between. */
    interface LogWatcher {
        void line(String line);

        void tick();
    }

    /** Exit code, or {@link CheckerRows#KILLED_AT_LIMIT} if it ran past the limit and was killed (a loaded machine can cause that). */
    static int run(List<String> command, Path workDir, Path log, long limitSeconds, LogWatcher watcher) {
        Process p = null;
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(log.getParent());
            p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            LogTail tail = new LogTail(log, watcher);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limitSeconds);
            while (!p.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                tail.poll();
                watcher.tick();
                if (System.nanoTime() > deadline) {
                    killTree(p);
                    p.waitFor(10, TimeUnit.SECONDS);
                    return CheckerRows.KILLED_AT_LIMIT;
                }
            }
            tail.poll();
            return p.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (p != null) {
                killTree(p); // no-op when it ended; its forks must not outlive it either way
            }
        }
    }

    /** Kills the process and everything it started; jcstress forks workers that outlive their parent. */
    private static void killTree(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.descendants().forEach(ProcessHandle::destroyForcibly); // a fork started while we killed the others
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The last lines of a log, for a one-line note. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** Hands each complete line a log file gains to a consumer, reading only what is new. */
    private static final class LogTail {
        private final Path log;
        private final LogWatcher lines;
        private long offset;
        private final StringBuilder partial = new StringBuilder();

        LogTail(Path log, LogWatcher lines) {
            this.log = log;
            this.lines = lines;
        }

        void poll() {
            try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
                long length = f.length();
                if (length <= offset) {
                    return;
                }
                byte[] fresh = new byte[(int) Math.min(length - offset, 1 << 20)];
                f.seek(offset);
                f.readFully(fresh);
                offset += fresh.length;
                partial.append(new String(fresh, StandardCharsets.UTF_8));
                for (int nl = partial.indexOf("\n"); nl >= 0; nl = partial.indexOf("\n")) {
                    lines.line(partial.substring(0, nl));
                    partial.delete(0, nl + 1);
                }
            } catch (IOException e) {
                // the log is for progress only; the verdict comes from the checker's files
            }
        }
    }
}
