package dev.relaycheck.maven;

import dev.relaycheck.model.command.ShellWords;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Replays a line relaycheck printed ({@code relaycheck replay rc1:...}, {@code ./relaycheck sql replay --adapter ...},
 * or a {@code .replay} file of results/failures/) from the project's directory: the relaycheck CLI, with the
 * project's classes and dependencies added to the line's {@code --classpath} where it names a class of the team's,
 * so that class loads with everything it needs. The build fails when the recorded failure reproduces.
 */
@Mojo(name = "replay", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class ReplayMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;
    @Parameter(defaultValue = "${plugin.artifacts}", readonly = true, required = true)
    List<Artifact> pluginArtifacts;

    /** The replay line as printed (the launcher's word first or not), or a .replay file. */
    @Parameter(property = "relaycheck.line", required = true)
    String line;
    @Parameter(property = "relaycheck.jvmOptions")
    List<String> jvmOptions;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        List<String> words = new ArrayList<>(ShellWords.split(line.strip()));
        if (!words.isEmpty() && words.get(0).endsWith("relaycheck")) {
            words.remove(0); // the launcher as printed: ./relaycheck, relaycheck, a path to it
        }
        if (words.size() == 1) {
            words.add(0, "replay"); // a token or a .replay file alone
        }
        if (words.isEmpty() || !(words.get(0).equals("replay") || (words.get(0).equals("sql") && words.size() > 1
                && words.get(1).equals("replay")))) {
            throw new MojoExecutionException("relaycheck replay: -Drelaycheck.line takes a replay line relaycheck printed "
                    + "('relaycheck replay ...' or 'relaycheck sql replay ...') or a .replay file, not '" + line + "'");
        }
        int at = words.indexOf("--classpath");
        if (at >= 0 || words.contains("--adapter")) { // a team's class: the line names where it was, the project has the rest
            Set<String> cp = new LinkedHashSet<>();
            if (at >= 0 && at + 1 < words.size()) {
                cp.addAll(List.of(words.get(at + 1).split(File.pathSeparator)));
                words.subList(at, at + 2).clear();
            }
            cp.addAll(RelaycheckCliRun.projectClasspath(project));
            words.addAll(List.of("--classpath", String.join(File.pathSeparator, cp)));
        }
        RelaycheckCliRun.Result r = RelaycheckCliRun.run(pluginArtifacts, jvmOptions == null ? List.of() : jvmOptions,
                project.getBasedir().toPath(), words, getLog());
        switch (r.exit()) {
            case 0 -> getLog().info("relaycheck replay: the recorded failure no longer reproduces");
            case 2 -> throw new MojoExecutionException("relaycheck replay: usage error: " + r.lastLine());
            default -> throw new MojoFailureException("relaycheck replay: " + r.lastLine() + " (exit " + r.exit() + ")");
        }
    }
}
