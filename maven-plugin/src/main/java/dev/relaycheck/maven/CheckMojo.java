package dev.relaycheck.maven;

import dev.relaycheck.model.command.ShellWords;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code relaycheck check} on the project's own relay, in the build: the logic, store, adapter or SQL file from
 * the project's classes and dependencies, the scenarios, checkers, databases and budget as configuration. A verdict
 * that is not clean fails the build, naming the verdict and the report; the report, summary.json and the JUnit XML
 * go to {@code results} ({@code target/relaycheck}).
 */
@Mojo(name = "check", defaultPhase = LifecyclePhase.VERIFY, requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class CheckMojo extends AbstractMojo {
    /** The JUnit XML {@code relaycheck check} writes beside its report. */
    static final String JUNIT_XML = "TEST-relaycheck.xml";

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;
    @Parameter(defaultValue = "${plugin.artifacts}", readonly = true, required = true)
    List<Artifact> pluginArtifacts;

    /** A {@code dev.relaycheck.model.RelayLogic} of the project, model-checked (and raced by jcstress/Lincheck). */
    @Parameter(property = "relaycheck.logic")
    String logic;
    /** A {@code RelayStore} of the project, for the jcstress and Lincheck checkers. */
    @Parameter(property = "relaycheck.store")
    String store;
    /** A {@code dev.relaycheck.jdbc.adapter.RelayAdapter} of the project: the SQL checks run it. */
    @Parameter(property = "relaycheck.adapter")
    String adapter;
    /**
     * A {@code dev.relaycheck.code.RelayFactory} of the project: the relay checked by its own code (relaycheck drives
     * its instances' statements, clock and faults) on every {@link #db}.
     */
    @Parameter(property = "relaycheck.relay")
    String relay;
    /** A relay file ({@code relaycheck sql template}): the SQL checks run it. */
    @Parameter(property = "relaycheck.sqlFile")
    File sqlFile;
    /** Shipped scenario names or scenario files; none: every shipped scenario but soak. */
    @Parameter(property = "relaycheck.scenarios")
    List<String> scenarios;
    /** quick, default or long (the CLI's --budget). */
    @Parameter(property = "relaycheck.budget", defaultValue = "quick")
    String budget;
    /**
     * The checkers (model, jcstress, lincheck, sql, code). jcstress and Lincheck run from a relaycheck checkout's harness
     * builds, which a team's project has not got: the default is code with a {@link #relay}, else model and sql.
     */
    @Parameter(property = "relaycheck.only")
    List<String> only;
    /** Databases for the SQL checks: h2, postgres (an embedded server), jdbc:postgresql://... */
    @Parameter(property = "relaycheck.db", defaultValue = "h2")
    List<String> db;
    /** Run the shipped broken SQL variants beside the relay (yes) or check the relay alone (no). */
    @Parameter(property = "relaycheck.controls", defaultValue = "yes")
    String controls;
    /** Where the report, summary.json and the JUnit XML go. */
    @Parameter(property = "relaycheck.results", defaultValue = "${project.build.directory}/relaycheck")
    File results;
    /** Further CLI arguments, as {@code relaycheck check} takes them (e.g. --max-states, -Dlincheck.iterations=3). */
    @Parameter
    List<String> arguments;
    /** Options for the relaycheck JVM (e.g. -Xmx4g). */
    @Parameter(property = "relaycheck.jvmOptions")
    List<String> jvmOptions;
    @Parameter(property = "relaycheck.skip", defaultValue = "false")
    boolean skip;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("relaycheck: skipped (relaycheck.skip)");
            return;
        }
        List<String> checkers = only != null && !only.isEmpty() ? only : relay != null ? List.of("code") : List.of("model", "sql");
        List<String> args = new ArrayList<>(List.of("check", "--results", results.getAbsolutePath(), "--budget", budget,
                "--only", String.join(",", checkers), "--db", String.join(",", db), "--controls", controls));
        boolean userClasses = false;
        if (relay != null) {
            args.addAll(List.of("--relay", relay));
            userClasses = true;
        }
        if (logic != null) {
            args.addAll(List.of("--logic", logic));
            userClasses = true;
        }
        if (store != null) {
            args.addAll(List.of("--store", store));
            userClasses = true;
        }
        if (adapter != null) {
            args.addAll(List.of("--adapter", adapter));
            userClasses = true;
        }
        if (sqlFile != null) {
            args.addAll(List.of("--sql", sqlFile.getAbsolutePath()));
        }
        if (userClasses) {
            args.addAll(List.of("--classpath", String.join(File.pathSeparator, RelaycheckCliRun.projectClasspath(project))));
        }
        if (scenarios != null) {
            for (String s : scenarios) {
                args.addAll(List.of("-s", s));
            }
        }
        if (arguments != null) {
            args.addAll(arguments);
        }
        RelaycheckCliRun.Result r = RelaycheckCliRun.run(pluginArtifacts, jvmOptions == null ? List.of() : jvmOptions,
                project.getBasedir().toPath(), args, getLog());
        String report = new File(results, "index.html").getPath();
        if (r.exit() == 0) {
            getLog().info("relaycheck: clean; report " + report + "; JUnit XML " + new File(results, JUNIT_XML).getPath());
            return;
        }
        if (r.exit() == 2) {
            throw new MojoExecutionException("relaycheck check: usage error: " + r.lastLine());
        }
        // the logic under test's failures print "replay: LINE" (a variant's caught counterexample is no failure)
        List<String> replays = r.lines().stream().map(String::strip).filter(l -> l.startsWith("replay:"))
                .map(l -> l.substring("replay:".length()).strip()).distinct().limit(3).toList();
        String last = r.lastLine();
        String xml = new File(results, JUNIT_XML).getPath();
        StringBuilder m = new StringBuilder("relaycheck check: " + last + " (exit " + r.exit() + ")"
                + (last.contains(report) ? "" : "; report " + report) + (last.contains(xml) ? "" : "; JUnit XML " + xml));
        for (String line : replays) {
            m.append("\n  replay: mvn relaycheck:replay -Drelaycheck.line=").append(ShellWords.quote(line));
        }
        throw new MojoFailureException(m.toString());
    }
}
