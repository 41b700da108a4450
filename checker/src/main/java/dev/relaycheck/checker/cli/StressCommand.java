package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.harness.HarnessJvm;
import dev.relaycheck.checker.harness.ModelReplays;
import dev.relaycheck.checker.harness.UserClasses;
import dev.relaycheck.checker.replay.ReplayRecord;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.store.UserTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code relaycheck stress}: the whole jcstress curriculum on the user's target, each harness's {@code User}
 * test in forked JVMs that load the user's classes themselves and prove it. Exit 0 when every harness passed,
 * 1 when one saw a forbidden outcome (or could not prove it ran the user's classes), 2 for bad input, 4 when
 * nothing failed but a test timed out or lost its forked VM (INCONCLUSIVE: time-based, never a failure).
 */
@Command(name = "stress", mixinStandardHelpOptions = true,
        description = "Run the jcstress curriculum on your logic (in the shipped store) or your own store.")
final class StressCommand implements Callable<Integer> {
    @Mixin
    UserClassOptions user = new UserClassOptions();
    @Option(names = "--tests", paramLabel = "REGEX", defaultValue = ".*", description = "harnesses to run (default: all)")
    String tests;
    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "quick", description = "jcstress mode: quick, default or tough")
    String mode;
    @Option(names = "--iterations", paramLabel = "N", defaultValue = "0", description = "iterations per fork (0: the mode's own)")
    int iterations;
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/jcstress", description = "report directory")
    Path out;
    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "where the model's replay records of a race go (DIR/failures)")
    Path results;
    @Spec
    CommandSpec spec;

    /**
     * For each harness where the user's logic showed a forbidden outcome: the model's replay line of the same
     * invariant broken by the same logic in the scenario with that hazard, so a race seen under stress becomes a
     * deterministic schedule.
     */
    private void printModelReplays(PrintWriter console, UserTarget user) {
        Path tsv = out.resolve("summary.tsv");
        if (!Files.isRegularFile(tsv)) {
            return;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(tsv, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean header = false;
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.split("\t", -1);
            if (f.length != 5 || !f[1].equals(user.id()) || !f[3].equals("FAILED")) {
                continue;
            }
            Optional<Invariant> invariant = ModelReplays.invariantIn(f[4]);
            if (invariant.isEmpty()) {
                continue;
            }
            if (!header) {
                console.println();
                console.println("the model replays what the harnesses saw (same logic, same invariant, a deterministic schedule):");
                header = true;
            }
            Optional<Counterexample> cx = ModelReplays.reproduce(f[0], user.logic(), invariant.get());
            if (cx.isPresent()) {
                console.printf("  %-30s %s in scenario %s, %d steps: ./relaycheck replay %s%n", f[0], invariant.get(),
                        cx.get().scenario().name(), cx.get().path().size(), ReplayRecord.of(cx.get()).toToken());
                console.printf("  %-30s record: %s%n", "", Failures.write(results, cx.get()));
            } else {
                console.printf("  %-30s %s: the model does not reproduce it in this harness's scenario%n", f[0], invariant.get());
            }
        }
    }

    @Override
    public Integer call() {
        PrintWriter console = spec.commandLine().getOut();
        UserClasses classes = user.resolve();
        Path home = Path.of(System.getProperty("relaycheck.home", ".")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(HarnessJvm.jcstressJar(home))) {
            spec.commandLine().getErr().println("relaycheck: no " + HarnessJvm.jcstressJar(home)
                    + ": build it with 'mvn -B -DskipTests install'");
            return ExitCodes.INTERNAL;
        }
        List<String> args = new ArrayList<>(List.of("--mode", mode, "--tests", tests, "--iterations",
                Integer.toString(iterations), "--out", out.toAbsolutePath().toString()));
        args.addAll(classes.args());
        int exit = HarnessJvm.stream(HarnessJvm.curriculum(home, args), out.toAbsolutePath(), console);
        if (exit == 1 && !classes.logic().isEmpty()) {
            printModelReplays(console, classes.load());
        }
        return switch (exit) {
            case 0 -> ExitCodes.CLEAN;
            case 1 -> ExitCodes.VIOLATION;
            case 2 -> ExitCodes.USAGE;
            case 4 -> ExitCodes.INCOMPLETE; // nothing failed; a test timed out or lost its VM: INCONCLUSIVE
            default -> ExitCodes.INTERNAL;
        };
    }
}
