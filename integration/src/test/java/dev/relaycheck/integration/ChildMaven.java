package dev.relaycheck.integration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code mvn} in a child process, as a team runs it in its own project: batch mode, the local repository
 * this build installed relaycheck into, everything it printed and its exit code. A project from
 * src/test/projects (or examples/) is copied under target/ first, so a run writes nothing into the sources.
 */
final class ChildMaven {
    static final Path ROOT = Path.of(System.getProperty("relaycheck.root", "..")).toAbsolutePath().normalize();
    static final String VERSION = System.getProperty("relaycheck.version", "0.1.0-SNAPSHOT");
    private static final String REPOSITORY = System.getProperty("relaycheck.localRepository");
    private static final long LIMIT_MINUTES = 10;

    record Run(int exit, String output) {
        boolean succeeded() {
            return exit == 0 && output.contains("BUILD SUCCESS");
        }
    }

    private ChildMaven() {
    }

    /** {@code mvn -B ARGS} in {@code dir}. */
    static Run mvn(Path dir, List<String> args) {
        List<String> command = new ArrayList<>(List.of("mvn", "-B"));
        if (REPOSITORY != null) {
            command.add("-Dmaven.repo.local=" + REPOSITORY);
        }
        command.addAll(args);
        return run(dir, command, "mvn " + String.join(" ", args), null);
    }

    /**
     * {@code line} as a person pastes it into a shell in {@code dir} (a replay line relaycheck printed); the local
     * repository this build installed into comes from MAVEN_OPTS, as on a machine where it is set there.
     */
    static Run pasted(Path dir, String line) {
        return run(dir, List.of("bash", "-c", line), line, REPOSITORY == null ? null : "-Dmaven.repo.local=" + REPOSITORY);
    }

    private static Run run(Path dir, List<String> command, String what, String mavenOpts) {
        try {
            Path out = Files.createTempFile("relaycheck-mvn", ".txt");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
                pb.environment().remove("MAVEN_OPTS"); // the repository is given; nothing of this build's JVM leaks in
                if (mavenOpts != null) {
                    pb.environment().put("MAVEN_OPTS", mavenOpts);
                }
                Process p = pb.start();
                if (!p.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    throw new AssertionError(what + " still running after " + LIMIT_MINUTES + " minutes");
                }
                return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** A fresh copy of {@code source} (its target/ left out) at target/projects/{@code name}. */
    static Path copy(Path source, String name) {
        Path to = Path.of("target", "projects", name).toAbsolutePath();
        try {
            delete(to);
            try (Stream<Path> files = Files.walk(source)) {
                for (Path f : files.filter(f -> !source.relativize(f).startsWith("target")).toList()) {
                    Path dest = to.resolve(source.relativize(f).toString());
                    if (Files.isDirectory(f)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.copy(f, dest, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * These tests resolve relaycheck from the local repository: it must hold this build's artifacts, which only
     * {@code mvn install} puts there (a {@code mvn verify} leaves an older install in place).
     */
    static void requireThisBuildInstalled() {
        for (String[] module : List.of(new String[]{"junit", "relaycheck-junit"}, new String[]{"maven-plugin", "relaycheck-maven-plugin"},
                new String[]{"examples/shop-relay", "example-shop-relay"})) {
            Path built = ROOT.resolve(module[0]).resolve("target").resolve(module[1] + "-" + VERSION + ".jar");
            Path installed = Path.of(REPOSITORY == null ? System.getProperty("user.home") + "/.m2/repository" : REPOSITORY)
                    .resolve("dev/relaycheck").resolve(module[1]).resolve(VERSION).resolve(module[1] + "-" + VERSION + ".jar");
            if (!Files.exists(built) || !Files.exists(installed) || !digest(built).equals(digest(installed))) {
                throw new AssertionError("the local repository's " + module[1] + " is not this build's: run mvn install "
                        + "(these tests run a team's mvn on the installed artifacts)");
            }
        }
    }

    private static String digest(Path f) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
