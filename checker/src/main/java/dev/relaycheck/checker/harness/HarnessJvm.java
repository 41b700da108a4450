package dev.relaycheck.checker.harness;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How the CLI starts the harness modules in their own JVMs: the jcstress curriculum from the shaded
 * {@code stress-tests/target/jcstress.jar} (jcstress runs once per JVM and forks its own workers) and the
 * Lincheck checks from {@code lincheck-tests/target/classes} plus the class path Maven wrote beside it.
 */
public final class HarnessJvm {
    /** Flags Lincheck needs on 17 and later (it attaches its agent itself). */
    public static final List<String> LINCHECK_FLAGS = List.of("-XX:+EnableDynamicAgentLoading", "-Xshare:off",
            "-Dlincheck.logLevel=error");

    private HarnessJvm() {
    }

    public static Path jcstressJar(Path home) {
        return home.resolve("stress-tests/target/jcstress.jar");
    }

    public static Path lincheckClasspathFile(Path home) {
        return home.resolve("lincheck-tests/target/classpath.txt");
    }

    /** {@code java -cp jcstress.jar dev.relaycheck.stress.Curriculum ARGS}. */
    public static List<String> curriculum(Path home, List<String> args) {
        List<String> command = new ArrayList<>(List.of(java(), "-cp", jcstressJar(home).toAbsolutePath().toString(),
                "dev.relaycheck.stress.Curriculum"));
        command.addAll(args);
        return command;
    }

    /** {@code java FLAGS -Dlincheck.results=OUT PROPS -cp ... dev.relaycheck.lincheck.LincheckChecks ARGS}. */
    public static List<String> lincheck(Path home, Path out, List<String> properties, List<String> args) {
        String cp;
        try {
            cp = home.resolve("lincheck-tests/target/classes").toAbsolutePath() + File.pathSeparator
                    + Files.readString(lincheckClasspathFile(home)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(LINCHECK_FLAGS);
        command.add("-Dlincheck.results=" + out.toAbsolutePath());
        command.addAll(properties);
        command.addAll(List.of("-cp", cp, "dev.relaycheck.lincheck.LincheckChecks"));
        command.addAll(args);
        return command;
    }

    /**
     * The Lincheck JVM's {@code -Dlincheck.NAME=VALUE} options from {@code -D} options a command took, in name
     * order; a property outside {@code lincheck.*} is a usage error (it would reach nothing).
     */
    public static List<String> lincheckProperties(java.util.Map<String, String> given) {
        List<String> properties = new ArrayList<>();
        new java.util.TreeMap<>(given).forEach((k, v) -> {
            if (!k.startsWith("lincheck.")) {
                throw new dev.relaycheck.checker.UsageException("-D" + k + ": only lincheck.* budget properties are accepted");
            }
            properties.add("-D" + k + "=" + v);
        });
        return properties;
    }

    /** Runs a command in {@code workDir}, handing each line of its output to {@code out} as it comes; its exit code. */
    public static int stream(List<String> command, Path workDir, PrintWriter out) {
        try {
            Files.createDirectories(workDir);
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File(nullDevice()))).start();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    out.println(line);
                    out.flush();
                }
            }
            return p.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String nullDevice() {
        return File.separatorChar == '\\' ? "NUL" : "/dev/null";
    }

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
