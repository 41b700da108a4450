package dev.relaycheck.checker.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a checker in its own JVM, output to a log file, with a time limit; kills the whole process tree on timeout. */
final class Subprocess {
    private Subprocess() {
    }

    /** Exit code, or -1 if it ran past the limit and was killed. */
    static int run(List<String> command, Path workDir, Path log, long limitSeconds) {
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!p.waitFor(limitSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly); // jcstress forks workers that outlive their parent
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
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
}
