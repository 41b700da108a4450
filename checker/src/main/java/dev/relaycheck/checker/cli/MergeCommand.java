package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.shard.ShardFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Combines the shards of one seeded run ({@code random} or {@code sql conformance} with {@code --shard I/N}, each in
 * its own results folder, on any machines) into the report and verdict of that run over the same seeds: the same
 * counts and findings, and its exit code.
 */
@Command(name = "merge",
        description = "Combine the results folders of every shard of one run ('random', 'sql conformance' or 'code' with "
                + "--shard I/N) into that run's report and verdict: the same counts and findings as one run over the same seeds, "
                + "and its exit code. A failure is walked again here from its number, so merge needs what the shards needed "
                + "(--classpath, scenario files), not their machines.")
final class MergeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "a shard's results folder (it holds " + ShardFile.NAME + "); every shard once")
    List<Path> dirs;
    @Option(names = "--results", paramLabel = "DIR", defaultValue = "results/merged",
            description = "where the merged run's records and reports go (default ${DEFAULT-VALUE})")
    Path results;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<ShardFile> files;
        try {
            files = ShardFile.readAll(dirs);
        } catch (IllegalArgumentException e) {
            throw new UsageException("merge: " + e.getMessage());
        }
        ResultsDir.requireWritable(results);
        out.println("merge of " + files.size() + " shards of: relaycheck " + files.get(0).describe());
        return switch (files.get(0).command()) {
            case "random" -> random(files, out);
            case "sql conformance" -> SqlCommand.merge(files, results, out, spec.commandLine().getErr());
            case "code" -> code(files, out);
            default -> throw new UsageException("merge: cannot merge shards of '" + files.get(0).command() + "'");
        };
    }

    private int code(List<ShardFile> files, PrintWriter out) {
        CodeCommand code = new CodeCommand();
        CommandLine cli = new CommandLine(code);
        cli.setOut(out);
        cli.setErr(spec.commandLine().getErr());
        try {
            cli.parseArgs(files.get(0).args().toArray(String[]::new));
            return code.merge(files, results);
        } catch (CommandLine.ParameterException e) {
            throw new UsageException("merge: the shards' arguments do not parse here: " + e.getMessage());
        } catch (UsageException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("merge of code shards: " + e, e);
        }
    }

    private int random(List<ShardFile> files, PrintWriter out) {
        RandomCommand random = new RandomCommand();
        CommandLine cli = new CommandLine(random);
        cli.setOut(out);
        cli.setErr(spec.commandLine().getErr());
        try {
            cli.parseArgs(files.get(0).args().toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new UsageException("merge: the shards' arguments do not parse here: " + e.getMessage());
        }
        return random.merge(files, out, results);
    }
}
