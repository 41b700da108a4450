package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.model.shard.Shard;
import dev.relaycheck.model.shard.ShardFile;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code --shard I/N}: this process runs one shard of a seeded search and records it for {@code relaycheck merge}. */
final class ShardOption {
    /** Options that shape no result: where it goes, and how many threads made it. */
    static final Set<String> NOT_SHAPING = Set.of("--shard", "--results", "--out", "--threads");

    @Option(names = "--shard", paramLabel = "I/N",
            description = "run shard I of N (counted from 1) of the seeded schedules: schedule i when i mod N = I-1; "
                    + "writes DIR/" + ShardFile.NAME + " for 'relaycheck merge', which gives the verdict (a shard exits 0)")
    String text;

    /** The shard this process runs; {@link Shard#WHOLE} without the option. */
    Shard shard() {
        if (text == null) {
            return Shard.WHOLE;
        }
        try {
            return Shard.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * Writes the shard's rows with the command's arguments (less those that shape nothing) and says where: a shard's
     * findings are those of its schedules alone, so its exit is 0 and the verdict is the merge's.
     */
    int finish(PrintWriter out, String command, CommandSpec spec, Path dir, List<List<String>> rows) {
        Path file = new ShardFile(command, shapingArgs(spec), shard(), rows).write(dir);
        out.println("shard " + shard() + " of " + command + ": " + file + " written; the verdict is the merge's: relaycheck merge DIR...");
        return ExitCodes.CLEAN;
    }

    /** The arguments the user gave the command, less those of {@link #NOT_SHAPING}. */
    static List<String> shapingArgs(CommandSpec spec) {
        List<String> given = spec.commandLine().getParseResult().originalArgs();
        int at = given.indexOf(spec.name());
        List<String> out = new ArrayList<>();
        for (int i = at + 1; i < given.size(); i++) {
            String a = given.get(i);
            int eq = a.indexOf('=');
            if (NOT_SHAPING.contains(a)) {
                i++; // and its value
            } else if (!(a.startsWith("--") && eq > 0 && NOT_SHAPING.contains(a.substring(0, eq)))) {
                out.add(a);
            }
        }
        return out;
    }
}
