package dev.relaycheck.checker.cli;

import dev.relaycheck.model.testsupport.UserJar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The CLI as a person meets it: the real {@code main} in a child JVM, its stdout, stderr and exit code read
 * after the process ended (so a command that forgets to flush shows up as missing output, which a test
 * rendering into a StringWriter cannot see). Also compiles a user's classes outside the project into a jar.
 */
public final class ChildCli {
    /** Far above any command a test runs: a safety net against a hung child, never a verdict. */
    private static final long LIMIT_MINUTES = 15;

    private ChildCli() {
    }

    public record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs {@code relaycheck ARGS} in a child JVM with {@code workDir} as its working directory. */
    public static Run run(Path workDir, String... args) {
        return run(workDir, List.of(), args);
    }

    /** The same with extra JVM options (e.g. -Xmx64m) before the main class. */
    public static Run run(Path workDir, List<String> jvmOptions, String... args) {
        return run(workDir, jvmOptions, System.getProperty("java.class.path"), args);
    }

    /**
     * relaycheck as a team runs it on its own project (the examples' tests, in the example's folder): this JVM's
     * class path less the module's own {@code target/} (its classes and test classes), which the arguments hand
     * over with {@code --classpath} like the jars a user points relaycheck at.
     */
    public static Run runAsUser(String... args) {
        return runAsUser(List.of(), args);
    }

    /**
     * The same, with {@code userJars} (the libraries the team's classes use, which it passes with {@code --classpath})
     * left off relaycheck's own class path too: a library that loads the team's classes by name (a handler class,
     * a bean) must be loaded where those classes are, as it is when relaycheck's class path has nothing of the team's.
     */
    public static Run runAsUser(List<String> userJars, String... args) {
        Path here = Path.of("").toAbsolutePath();
        List<String> cp = new ArrayList<>(List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)));
        cp.removeIf(p -> Path.of(p).toAbsolutePath().startsWith(here.resolve("target")) || userJars.contains(p));
        return run(here, List.of(), String.join(java.io.File.pathSeparator, cp), args);
    }

    /**
     * Whether relaycheck can start its own PostgreSQL server here (embedded PostgreSQL has binaries for this OS);
     * under CI=true it must: a skip there would prove nothing, so the caller's test fails instead.
     */
    public static boolean postgresHere() {
        java.util.Optional<String> why = dev.relaycheck.jdbc.db.PostgresServer.unavailable();
        if (why.isPresent() && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true but PostgreSQL cannot run here: " + why.get());
        }
        return why.isEmpty();
    }

    /**
     * Options of every child JVM, before the test's own ({@code -Drelaycheck.childJvm=...}, blank for none): most
     * children run for seconds, where the client compiler alone starts sooner than tiered compilation.
     */
    static final List<String> CHILD_JVM = List.of(System.getProperty("relaycheck.childJvm", "-XX:TieredStopAtLevel=1").strip()
            .split("\\s+")).stream().filter(o -> !o.isEmpty()).toList();

    private static Run run(Path workDir, List<String> jvmOptions, String classpath, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CHILD_JVM);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath);
        command.add(RelaycheckCli.class.getName());
        command.addAll(List.of(args));
        try {
            Path out = Files.createTempFile("relaycheck-out", ".txt");
            Path err = Files.createTempFile("relaycheck-err", ".txt");
            try {
                Process p = new ProcessBuilder(command).directory(workDir.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!p.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    throw new AssertionError("relaycheck " + String.join(" ", args) + " still running after "
                            + LIMIT_MINUTES + " minutes");
                }
                return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Compiles {@code sources} (class name to source text) against this JVM's class path, outside the
     * project, and packs the classes into {@code dir/name.jar}; returns the jar ({@link UserJar}, shared with the
     * harness modules' tests).
     */
    public static Path compileJar(Path dir, String name, java.util.Map<String, String> sources) {
        return UserJar.compile(dir, name, sources);
    }
}
