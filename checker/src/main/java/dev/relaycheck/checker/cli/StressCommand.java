package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.harness.HarnessJvm;
import dev.relaycheck.checker.harness.UserClasses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code relaycheck stress}: the whole jcstress curriculum on the user's target, each harness's {@code User}
 * test in forked JVMs that load the user's classes themselves and prove it. Exit 0 when every harness passed,
 * 1 when one saw a forbidden outcome (or could not prove it ran the user's classes), 2 for bad input.
 */
@Command(name = "stress", mixinStandardHelpOptions = true,
        description = "Run the jcstress curriculum on your logic (in the shipped store) or your own store.")
final class StressCommand implements Callable<Integer> {
    @Mixin
    UserClassOptions user = new UserClassOptions();
    @Option(names = "--tests", paramLabel = "REGEX", defaultValue = ".*", description = "harnesses to run (default: all)")
    String tests;
    @Option(names = "--mode", defaultValue = "quick", description = "jcstress mode: quick, default or tough")
    String mode;
    @Option(names = "--iterations", defaultValue = "0", description = "iterations per fork (0: the mode's own)")
    int iterations;
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/jcstress", description = "report directory")
    Path out;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter console = spec.commandLine().getOut();
        UserClasses classes = user.resolve();
        Path home = Path.of(System.getProperty("relaycheck.home", ".")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(HarnessJvm.jcstressJar(home))) {
            spec.commandLine().getErr().println("relaycheck: no " + HarnessJvm.jcstressJar(home)
                    + ": build it with 'mvn -B -DskipTests install'");
            return RelaycheckCli.INTERNAL;
        }
        List<String> args = new ArrayList<>(List.of("--mode", mode, "--tests", tests, "--iterations",
                Integer.toString(iterations), "--out", out.toAbsolutePath().toString()));
        args.addAll(classes.args());
        int exit = HarnessJvm.stream(HarnessJvm.curriculum(home, args), out.toAbsolutePath(), console);
        return switch (exit) {
            case 0 -> RelaycheckCli.CLEAN;
            case 1 -> RelaycheckCli.VIOLATION;
            case 2 -> RelaycheckCli.USAGE;
            default -> RelaycheckCli.INTERNAL;
        };
    }
}
