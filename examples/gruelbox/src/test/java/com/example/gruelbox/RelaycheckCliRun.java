package com.example.gruelbox;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the relaycheck CLI the way a user does: its own JVM, relaycheck's class path without this module's
 * classes, which are handed over with --classpath together with gruelbox and its dependencies (the list the
 * build writes to target/gruelbox.classpath), like the jars a user points relaycheck at. (The same helper as
 * examples/shop-relay's, with the gruelbox class path added.)
 */
final class RelaycheckCliRun {
    private static final long LIMIT_MINUTES = 20;

    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private RelaycheckCliRun() {
    }

    /** What a user passes as --classpath: the adapter's classes, gruelbox and its dependencies. */
    static String adapterClasspath() throws IOException {
        return Path.of("target", "classes").toAbsolutePath() + File.pathSeparator
                + Files.readString(Path.of("target", "gruelbox.classpath"), StandardCharsets.UTF_8).strip();
    }

    static Result relaycheck(String... args) throws IOException, InterruptedException {
        List<String> cp = new ArrayList<>(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
        cp.removeIf(p -> Path.of(p).toAbsolutePath().startsWith(Path.of("").toAbsolutePath().resolve("target")));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, cp), "dev.relaycheck.checker.cli.RelaycheckCli"));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("relaycheck-out", ".txt");
        Path err = Files.createTempFile("relaycheck-err", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("relaycheck " + String.join(" ", args) + " still running after " + LIMIT_MINUTES + " minutes");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Whether the PostgreSQL checks can run here; under CI=true they must (a skip there would prove nothing). */
    static boolean postgresHere() {
        boolean binaries = Files.isDirectory(Path.of("/usr/lib/postgresql")) || System.getenv("RELAYCHECK_PG_BIN") != null;
        if (!binaries && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true but no PostgreSQL server binaries: .ci/run installs Debian's postgresql package");
        }
        return binaries;
    }
}
