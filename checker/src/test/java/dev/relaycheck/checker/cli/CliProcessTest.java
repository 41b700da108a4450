package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI's plumbing as a person meets it: the real main in a child JVM, its stdout, stderr and exit code. */
class CliProcessTest {
    private static final List<String> COMMANDS = List.of("check", "explore", "random", "replay", "variants", "scenarios",
            "bench", "sql", "code", "stress", "lincheck", "diff", "config", "merge", "help");

    @TempDir
    Path dir;

    private static String token(String out) {
        Matcher m = Pattern.compile("relaycheck replay (rc1:\\S+)").matcher(out);
        assertThat(m.find()).as("a replay line in:\n%s", out).isTrue();
        return m.group(1);
    }

    private static void oneLine(ChildCli.Run r, int exit, String startsWith) {
        assertThat(r.exit()).as(r.toString()).isEqualTo(exit);
        assertThat(r.err().trim()).as(r.toString()).startsWith(startsWith).doesNotContain("\n").doesNotContain("Exception");
    }

    @Test
    void replayPrintsItsVerdictBeforeTheProcessEnds() throws Exception {
        ChildCli.Run found = ChildCli.run(dir, "explore", "--logic", "ack-ignores-token", "-s", "stale-ack-after-expiry");
        assertThat(found.exit()).isEqualTo(ExitCodes.VIOLATION);

        ChildCli.Run reproduced = ChildCli.run(dir, "replay", token(found.out()));
        assertThat(reproduced.exit()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(reproduced.out()).contains("<== STALE_ACK_REJECTED").contains("REPRODUCED STALE_ACK_REJECTED: all 6 steps matched");

        Path record = dir.resolve("results/failures/ack-ignores-token--stale-ack-after-expiry--STALE_ACK_REJECTED.replay");
        Files.writeString(record, Files.readString(record).replace("=> ACKED E1/t1", "=> STALE E1/t1"));
        ChildCli.Run notReproduced = ChildCli.run(dir, "replay", record.toString());
        assertThat(notReproduced.exit()).isEqualTo(ExitCodes.CLEAN);
        assertThat(notReproduced.out()).startsWith("NOT REPRODUCED: step 6: expected Ack(p1,E1,t1) => STALE E1/t1, got");
    }

    @Test
    void anUnwritableResultsFolderIsAUsageErrorBeforeAnyWork() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder");
        String results = file.resolve("results").toString();
        for (String[] args : List.of(
                new String[] {"explore", "--logic", "ack-ignores-token", "-s", "stale-ack-after-expiry", "--results", results},
                new String[] {"random", "--logic", "ack-ignores-token", "-s", "stale-ack-after-expiry", "--results", results},
                new String[] {"check", "--only", "model", "-s", "stale-ack-after-expiry", "--results", results},
                new String[] {"bench", "--results", results})) {
            ChildCli.Run r = ChildCli.run(dir, args);
            oneLine(r, ExitCodes.USAGE, "relaycheck: --results " + results + " is not a writable folder");
            assertThat(r.out()).as("nothing was searched").isEmpty();
        }
    }

    @Test
    void threadsHaveAnUpperBound() {
        for (String command : List.of("explore", "random", "check")) {
            ChildCli.Run r = ChildCli.run(dir, command, "--only", "model", "-s", "stale-ack-after-expiry", "--threads", "1000");
            if (!command.equals("check")) {
                r = ChildCli.run(dir, command, "-s", "stale-ack-after-expiry", "--threads", "1000");
            }
            oneLine(r, ExitCodes.USAGE, "relaycheck: --threads must be between 1 and " + Threads.max());
        }
    }

    @Test
    void runningOutOfMemoryInWorkersIsOneLine() {
        int threads = Math.min(8, Threads.max()); // eight workers each filling buffers: the heap gives out in a worker
        // a --max-states far above what 64 MiB holds (without one, the default bound stops it INCOMPLETE first)
        ChildCli.Run r = ChildCli.run(dir, List.of("-Xmx64m"), "explore", "-s", "soak", "--threads", Integer.toString(threads),
                "--max-states", "100000000");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.INTERNAL);
        // a search that ran two seconds printed progress lines before; apart from those, one line
        assertThat(r.err().lines().filter(l -> !l.startsWith("progress: ")).toList()).as(r.toString())
                .singleElement().asString().startsWith("relaycheck: out of memory (heap limit ");
        assertThat(r.err()).doesNotContain("OutOfMemoryError").doesNotContain("Exception");
    }

    @Test
    void incompleteNamesTheBoundThatStoppedIt() {
        ChildCli.Run heap = ChildCli.run(dir, List.of("-Xmx256m"), "explore", "-s", "soak", "--threads", "2");
        assertThat(heap.exit()).as(heap.toString()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(heap.out()).contains("INCOMPLETE: stopped at ").contains("(no --max-states was given)")
                .doesNotContain("--max-states bound").contains("verdict INCOMPLETE");
        // a heap smaller than the search's fixed buffers: the default bound stops it early, never an OutOfMemoryError
        ChildCli.Run small = ChildCli.run(dir, List.of("-Xmx64m"), "explore", "-s", "soak", "--threads", "2");
        assertThat(small.exit()).as(small.toString()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(small.out()).contains("what a heap of 64 MiB holds (no --max-states was given)");

        ChildCli.Run given = ChildCli.run(dir, "explore", "-s", "soak", "--max-states", "1000");
        assertThat(given.exit()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(given.out()).contains("INCOMPLETE: stopped at the --max-states bound of 1000 distinct states");
    }

    @ParameterizedTest
    @ValueSource(strings = {"check", "explore", "random", "replay", "variants", "scenarios", "bench", "sql", "stress",
            "lincheck", "diff", "config", "merge"})
    void everyCommandsHelpExitsZeroAndListsTheExitCodes(String command) {
        for (String flag : command.equals("sql") ? List.of("--help", "-h") : List.of("--help")) {
            ChildCli.Run r = ChildCli.run(dir, command, flag);
            assertThat(r.exit()).as(r.toString()).isZero();
            assertThat(r.out()).startsWith("Usage: relaycheck " + command).contains("Exit codes:")
                    .contains("4  INCOMPLETE").contains("7  NON-DETERMINISM");
            assertThat(r.out()).as("placeholders are NAMES, not <fieldNames>").doesNotContainPattern("<[a-zA-Z]+>");
            assertThat(r.err()).isEmpty();
        }
        ChildCli.Run viaHelp = ChildCli.run(dir, "help", command);
        assertThat(viaHelp.exit()).isZero();
        assertThat(viaHelp.out()).startsWith("Usage: relaycheck " + command);
        ChildCli.Run version = ChildCli.run(dir, command, "-V");
        assertThat(version.exit()).isZero();
        assertThat(version.out().trim()).isEqualTo("relaycheck 0.1.0");
    }

    @Test
    void everyOptionOfEveryCommandSaysWhatItDoes() {
        CommandLine cli = new CommandLine(new RelaycheckCli());
        assertThat(cli.getSubcommands().keySet()).containsExactlyElementsOf(COMMANDS);
        for (CommandLine sub : cli.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            assertThat(String.join(" ", spec.usageMessage().description())).as(spec.name()).isNotBlank();
            for (OptionSpec o : spec.options()) {
                assertThat(String.join(" ", o.description())).as("%s %s", spec.name(), o.longestName()).isNotBlank();
                if (o.arity().max() > 0) {
                    assertThat(o.paramLabel()).as("%s %s", spec.name(), o.longestName()).doesNotContain("<");
                }
            }
        }
    }

    @Test
    void anUnknownCommandSuggestsTheNearestOne() {
        oneLine(ChildCli.run(dir, "explor"), ExitCodes.USAGE, "relaycheck: Unmatched argument at index 0: 'explor'; did you mean 'explore'?");
        oneLine(ChildCli.run(dir), ExitCodes.USAGE, "relaycheck: missing command (try 'relaycheck help')");
    }

    @Test
    void checkShowsTheModelPhasesProgressOnStderrAndNeverInItsResults() throws Exception {
        ChildCli.Run r = ChildCli.run(dir, "check", "--only", "model", "-s", "stale-ack-after-expiry", "-s", "event-61-lost-ack");
        // two scenarios do not catch every variant: the run fails, which does not matter here
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.VIOLATION);
        int searches = 2 * (1 + dev.relaycheck.model.catalogue.LogicCatalogue.variants().size()); // the correct logic and each variant
        assertThat(r.err()).contains("[model] 0 of " + searches + " searches, 0s elapsed (correct on stale-ack-after-expiry)")
                .containsPattern("\\[model] " + searches + " of " + searches + " searches, \\d+(m\\d\\d)?s elapsed\n");
        assertThat(r.out()).doesNotContain(" elapsed");
        assertThat(Files.readString(dir.resolve("results/summary.md"))).doesNotContain(" elapsed");
    }
}
