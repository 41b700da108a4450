package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.report.RunDiff;
import dev.relaycheck.checker.report.RunSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Before and after a change to the lease logic: compares two runs of {@code check} (their results directories or
 * summary.json files) and prints what got worse, what got better and what changed. Exit 0 when nothing got worse,
 * 1 when something did, 2 when an input is missing or not a relaycheck summary.
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "Compare two runs of 'check' (results directories or summary.json files): exit 1 if something got worse.")
final class DiffCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "OLD", description = "results directory (or summary.json) before the change")
    String before;
    @Parameters(index = "1", paramLabel = "NEW", description = "results directory (or summary.json) after the change")
    String after;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        RunDiff d = RunDiff.of(RunSummary.read(Path.of(before), before), RunSummary.read(Path.of(after), after));
        spec.commandLine().getOut().print(d.text());
        spec.commandLine().getOut().flush();
        return d.worse() ? ExitCodes.VIOLATION : ExitCodes.CLEAN;
    }
}
