package dev.relaycheck.maven;

import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The relaycheck CLI in a JVM of its own, as a person runs it: its own class path (this plugin's artifacts), the
 * project's classes and dependencies on {@code --classpath}, its output echoed to the build log line by line. A
 * JVM of its own because a check forks JVMs, installs shutdown hooks and exits with its verdict.
 */
final class RelaycheckCliRun {
    /** What the CLI printed (stdout and stderr, in order) and its exit code. */
    record Result(int exit, List<String> lines) {
        /** The verdict line: the last one printed. */
        String lastLine() {
            return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        }
    }

    private RelaycheckCliRun() {
    }

    static Result run(List<Artifact> pluginArtifacts, List<String> jvmOptions, Path workDir, List<String> args, Log log)
            throws MojoExecutionException {
        List<String> cp = new ArrayList<>();
        for (Artifact a : pluginArtifacts) {
            if (a.getFile() != null) {
                cp.add(a.getFile().getAbsolutePath());
            }
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        // replay lines start with this word: the plugin's replay goal takes them as printed
        command.add("-Drelaycheck.command=relaycheck");
        command.addAll(List.of("-cp", String.join(File.pathSeparator, cp), "dev.relaycheck.checker.cli.RelaycheckCli"));
        command.addAll(args);
        log.debug("relaycheck: " + String.join(" ", command));
        try {
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.PIPE).start();
            p.getOutputStream().close();
            List<String> lines = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    String shown = line.substring(line.lastIndexOf('\r') + 1); // a progress line that rewrote itself
                    lines.add(shown);
                    log.info(shown);
                }
            }
            return new Result(p.waitFor(), lines);
        } catch (IOException e) {
            throw new MojoExecutionException("relaycheck: cannot start the relaycheck JVM: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("relaycheck: interrupted", e);
        }
    }

    /**
     * The project's classes, test classes and dependencies, for {@code --classpath}: relaycheck's own artifacts
     * left out (the CLI has them; a second copy would shadow nothing but confuse a reader of the line).
     */
    static List<String> projectClasspath(MavenProject project) {
        Set<String> cp = new LinkedHashSet<>();
        cp.add(project.getBuild().getTestOutputDirectory());
        cp.add(project.getBuild().getOutputDirectory());
        for (Artifact a : project.getArtifacts()) {
            boolean relaycheck = a.getGroupId().equals("dev.relaycheck") && a.getArtifactId().startsWith("relaycheck-");
            if (!relaycheck && a.getFile() != null && a.getArtifactHandler().isAddedToClasspath()) {
                cp.add(a.getFile().getAbsolutePath());
            }
        }
        return List.copyOf(cp);
    }
}
