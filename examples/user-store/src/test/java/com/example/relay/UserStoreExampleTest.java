package com.example.relay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What CI expects of the example, run as a user runs it: the real relaycheck CLI in a child JVM whose class path
 * does not hold the example's classes; they come from a jar built here, outside relaycheck. The racy claim must be
 * caught by jcstress and by Lincheck, the fixed copy must pass both; a user's logic in its own jar goes through
 * the same commands. Budgets are small (one harness, quick mode, a few Lincheck scenarios).
 */
class UserStoreExampleTest {
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path HOME = MODULE.getParent().getParent();
    /** The hazard scenarios (a double claim among them) run first in every check; a couple of random ones after. */
    private static final List<String> SMALL_LINCHECK = List.of("-Dlincheck.iterations=3", "-Dlincheck.invocations=50",
            "-Dlincheck.stress.iterations=3", "-Dlincheck.stress.invocations=100", "-Dlincheck.protocol.invocations=200");

    @TempDir
    static Path dir;

    record Run(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    @Test
    void jcstressCatchesTheRacyClaimNamingTheInvariant() throws Exception {
        Run r = cli("stress", "--store", RacyClaimStore.class.getName(), "--classpath", storeJar().toString(),
                "--tests", "Lease_01", "--iterations", "2", "--out", dir.resolve("jcstress-racy").toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("FAILED   Lease_01_DoubleClaim  store:RacyClaimStore")
                .contains("(SINGLE_LIVE_LEASE)")
                .contains("ran store " + RacyClaimStore.class.getName() + " from " + storeJar() + " (running the shipped correct logic)");
    }

    @Test
    void jcstressPassesTheFixedClaim() throws Exception {
        Run r = cli("stress", "--store", FixedClaimStore.class.getName(), "--classpath", storeJar().toString(),
                "--tests", "Lease_01", "--iterations", "2", "--out", dir.resolve("jcstress-fixed").toString());
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("PASS     Lease_01_DoubleClaim  store:FixedClaimStore  no forbidden outcome")
                .contains("proven by");
    }

    @Test
    void lincheckCatchesTheRacyClaim() throws Exception {
        Run r = lincheck("--store", RacyClaimStore.class.getName(), "--only", "linearizability-model-checking");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("FAILED  linearizability-model-checking/store:RacyClaimStore")
                .contains("non-linearizable against the correct model");
    }

    @Test
    void lincheckPassesTheFixedClaimOrAtWorstCannotDecide() throws Exception {
        // the linearizability checks; relay-protocol (which the racy claim does not need to be caught) is left to
        // 'relaycheck lincheck' runs by hand: on a loaded machine its time-based hang detection costs minutes of reruns
        Run r = lincheck("--store", FixedClaimStore.class.getName(), "--only",
                "linearizability-model-checking,linearizability-stress");
        // Lincheck's hang detection is time-based: on a loaded machine a run may end INCONCLUSIVE (exit 4), never FAILED
        assertThat(r.exit()).as(r.toString()).isIn(0, 4);
        assertThat(r.out()).doesNotContain("FAILED").contains("linearizability-model-checking/store:FixedClaimStore");
    }

    @Test
    void aUsersLogicInItsOwnJarGoesThroughTheSameCommands() throws Exception {
        Path jar = logicJar();
        Run r = lincheck("--logic", "com.acme.OwnerFencedRelay", "--classpath", jar.toString(),
                "--only", "linearizability-model-checking");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("FAILED  linearizability-model-checking/acme-owner-fenced")
                .contains("rerun: relaycheck lincheck --logic com.acme.OwnerFencedRelay --classpath " + jar);
    }

    @Test
    void aStoreThatIsNotAStoreIsOneUsageLine() throws Exception {
        Run r = cli("check", "--store", "com.example.relay.Nope", "--classpath", storeJar().toString(), "--only", "model",
                "-s", "event-61-lost-ack", "--results", dir.resolve("results").toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("relaycheck: class com.example.relay.Nope not found on").doesNotContain("\n");
    }

    private static Run lincheck(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("lincheck"));
        if (!Arrays.asList(args).contains("--classpath")) {
            all.addAll(List.of("--classpath", storeJar().toString()));
        }
        all.addAll(List.of(args));
        all.addAll(SMALL_LINCHECK);
        all.addAll(List.of("--out", dir.resolve("lincheck-" + Math.abs(String.join(" ", args).hashCode())).toString()));
        return cli(all.toArray(String[]::new));
    }

    /** The example's classes as the user ships them: their own jar, outside relaycheck. */
    private static synchronized Path storeJar() throws IOException {
        Path jar = dir.resolve("user-store.jar");
        if (!Files.exists(jar)) {
            Path classes = MODULE.resolve("target/classes");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                    out.write(Files.readAllBytes(f));
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    /** A user's logic, compiled here against relaycheck's model into its own jar. */
    private static Path logicJar() throws IOException {
        Path src = dir.resolve("logic-src/com/acme/OwnerFencedRelay.java");
        Path classes = dir.resolve("logic-classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        Files.writeString(src, """
                package com.acme;
                import dev.relaycheck.model.*;
                /** Our ack's UPDATE checks that the row is leased, not that it is leased under our token. */
                public final class OwnerFencedRelay extends CorrectRelayLogic {
                    @Override public String id() { return "acme-owner-fenced"; }
                    @Override public String description() { return "acks any leased row, whoever holds it"; }
                    @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending() && row.hasLease(); }
                }
                """);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, "-d", classes.toString(), "-cp", childClasspath(), src.toString());
        assertThat(rc).as(errors.toString(StandardCharsets.UTF_8)).isZero();
        Path jar = dir.resolve("acme-logic.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("com/acme/OwnerFencedRelay.class"));
            out.write(Files.readAllBytes(classes.resolve("com/acme/OwnerFencedRelay.class")));
            out.closeEntry();
        }
        return jar;
    }

    /** This JVM's class path without the example's own classes: relaycheck as installed, nothing of the user's. */
    private static String childClasspath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> !Path.of(p).toAbsolutePath().startsWith(MODULE.resolve("target")))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static Run cli(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Drelaycheck.home=" + HOME, "-cp", childClasspath(), "dev.relaycheck.checker.cli.RelaycheckCli"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(15, TimeUnit.MINUTES)) { // a safety net against a hung child, never a verdict
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("relaycheck " + String.join(" ", args) + " still running after 15 minutes");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
