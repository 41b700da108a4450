package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.bench.Bench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** Measures the explorer and writes results/bench.md. */
@Command(name = "bench",
        description = "Measure exhaustive search speed and memory on one and two threads round by round, over poller "
                + "symmetry and without, and time to first counterexample per variant; with --logic CLASS[,CLASS...] and "
                + "--classpath, each of those logics (a relay's shape) beside the shipped correct one.")
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--soak-states", paramLabel = "N", defaultValue = "0",
            description = "stop soak's searches at N distinct states (default: search all of soak, about 18 million)")
    int soakStates;
    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
            description = "rounds of soak on one thread then two: each round reported, and the median (default 3; the "
                    + "machine is noisy)")
    int repeat;
    @Option(names = "--shape-states", paramLabel = "N", defaultValue = "20000000",
            description = "stop each --logic shape's search of soak, and the reference's beside it, at N distinct states "
                    + "(default ${DEFAULT-VALUE}, past soak's own; 0: all, as far as the heap holds)")
    int shapeStates;
    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results",
            description = "folder for bench.md, checked writable before the runs (default ${DEFAULT-VALUE})")
    Path results;
    @picocli.CommandLine.Mixin
    LogicOptions logic = new LogicOptions();
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (soakStates != 0 && soakStates < 1000) {
            throw new dev.relaycheck.checker.UsageException("--soak-states must be at least 1000 (or 0 for all of soak)");
        }
        if (repeat < 1) {
            throw new dev.relaycheck.checker.UsageException("--repeat must be at least 1");
        }
        if (shapeStates != 0 && shapeStates < 1000) {
            throw new dev.relaycheck.checker.UsageException("--shape-states must be at least 1000 (or 0 for all of soak)");
        }
        ResultsDir.requireWritable(results);
        java.util.List<dev.relaycheck.model.RelayLogic> shapes = new java.util.ArrayList<>(); // beside the shipped one
        if (logic.given()) {
            LogicOptions.applyDecisionTimeout(logic.decisionTimeout);
            for (String one : logic.logic.split(",")) {
                shapes.add(dev.relaycheck.checker.logic.LogicLoader.load(one.strip(), logic.classpath));
            }
        }
        String report = new Bench(soakStates, repeat, new ProgressPrinter(spec.commandLine().getErr()), shapes, shapeStates).run();
        spec.commandLine().getOut().print(report);
        try {
            Files.createDirectories(results);
            Files.writeString(results.resolve("bench.md"), report, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        spec.commandLine().getOut().println("written to " + results.resolve("bench.md"));
        return ExitCodes.CLEAN;
    }
}
