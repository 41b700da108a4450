package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.harness.HarnessJvm;
import dev.relaycheck.checker.harness.UserClasses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code relaycheck lincheck}: every Lincheck check on the user's target: linearizability against the pure model
 * (model checking and stress) and the relay-protocol check. Exit 0 when it passed everything that ran, 1 when a
 * check failed, 2 for bad input, 4 when nothing failed but a run was reported hung on every try (inconclusive).
 */
@Command(name = "lincheck", mixinStandardHelpOptions = true,
        description = "Run the Lincheck checks on your logic (in the shipped store) or your own store.")
final class LincheckCommand implements Callable<Integer> {
    @Mixin
    UserClassOptions user = new UserClassOptions();
    @Option(names = "--only", paramLabel = "CHECKS", description = "comma-separated check ids (default: all)")
    String only = "";
    @Option(names = "-D", paramLabel = "lincheck.NAME=VALUE", mapFallbackValue = "",
            description = "a budget property, e.g. -Dlincheck.iterations=100 (see LincheckBudget)")
    Map<String, String> budget = new TreeMap<>();
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/lincheck", description = "report directory")
    Path out;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        UserClasses classes = user.resolve();
        Path home = Path.of(System.getProperty("relaycheck.home", ".")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(HarnessJvm.lincheckClasspathFile(home))) {
            spec.commandLine().getErr().println("relaycheck: no " + HarnessJvm.lincheckClasspathFile(home)
                    + ": build it with 'mvn -B -DskipTests install'");
            return ExitCodes.INTERNAL;
        }
        List<String> properties = HarnessJvm.lincheckProperties(budget);
        List<String> args = new ArrayList<>(classes.args());
        if (!only.isBlank()) {
            args.addAll(List.of("--only", only));
        }
        int exit = HarnessJvm.stream(HarnessJvm.lincheck(home, out, properties, args), out.toAbsolutePath(),
                spec.commandLine().getOut());
        return switch (exit) {
            case 0 -> ExitCodes.CLEAN;
            case 1 -> ExitCodes.VIOLATION;
            case 2 -> ExitCodes.USAGE;
            case 4 -> ExitCodes.INCOMPLETE;
            default -> ExitCodes.INTERNAL;
        };
    }
}
