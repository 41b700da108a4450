package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.result.SqlReplayLine;
import dev.relaycheck.model.summary.SummaryRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SqlChecksCliTest {

    /** A replay line starts with the launcher as the user typed it (its $0), so it pastes in the folder they ran it in. */
    @Test
    void replayLinesStartWithTheLauncherAsTyped() {
        RelayUnderTest relay = RelayUnderTest.of(SqlVariant.CORRECT);
        assertThat(SqlReplayLine.of(relay, DbTarget.h2()))
                .startsWith("./relaycheck sql replay ");
        System.setProperty("relaycheck.command", "/opt/my tools/relaycheck");
        try {
            assertThat(SqlReplayLine.of(relay, DbTarget.h2()))
                    .startsWith("'/opt/my tools/relaycheck' sql replay ").endsWith(" --db h2");
        } finally {
            System.clearProperty("relaycheck.command");
        }
    }
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SqlChecksCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void badArgumentsExit2WithOneLine() {
        for (String[] args : List.of(new String[]{"bogus"}, new String[]{"conformance", "--seeds", "x"},
                new String[]{"crash", "--rounds", "0"}, new String[]{"race", "--what", "1"}, new String[]{"conformance", "--seeds"},
                new String[]{"replay", "--target", "nope", "--scenario", "mixed", "--walk-seed", "1"},
                new String[]{"replay", "--target", "correct"}, new String[]{"replay", "--target", "correct", "--cut", "nowhere"},
                new String[]{"crash", "--nth", "1"}, new String[]{"race", "--race-seed", "1"},
                new String[]{"replay", "--target", "correct", "--race-seed", "1", "--cut", "after-claim"},
                new String[]{"replay", "--target", "correct", "--race-seed", "1", "--shared-database", "maybe"})) {
            out.reset();
            err.reset();
            assertThat(run(args)).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8).lines().count()).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("relaycheck sql: ").doesNotContain("Exception");
            assertThat(out.size()).isZero();
        }
    }

    @Test
    void conformanceWritesSortedSummaryAndKeepsOtherChecksRows(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("summary.tsv"), SummaryRow.HEADER + "\nsql-race\tcorrect\tPASS\tPASS\tearlier run\n"
                + "sql-conformance\tcorrect\tPASS\tFAILED\tstale row, replaced\n");
        int exit = run("conformance", "--seeds", "1", "--seed", "5", "--out", dir.toString());
        List<String> lines = Files.readAllLines(dir.resolve("summary.tsv"), StandardCharsets.UTF_8);
        // one seed is too few to catch every variant (a stale ack must happen first) or to reach every witness:
        // the rows and the exit status say so
        boolean allOk = lines.stream().skip(1).filter(l -> l.startsWith("sql-conformance")).allMatch(l -> l.contains("\tPASS\tPASS\t")
                || l.contains("\tCATCH\tCAUGHT\t"));
        assertThat(exit).isEqualTo(allOk ? 0 : 1);
        assertThat(lines.get(0)).isEqualTo("check\ttarget\texpect\tverdict\tdetail");
        assertThat(lines).hasSize(1 + SqlVariant.values().length + 1);
        assertThat(lines.subList(1, lines.size())).isSorted().allMatch(l -> l.split("\t", -1).length == 5);
        assertThat(lines).contains("sql-race\tcorrect\tPASS\tPASS\tearlier run").noneMatch(l -> l.contains("stale row"));
        assertThat(lines).filteredOn(l -> l.startsWith("sql-conformance\t") && !l.contains("\tcorrect\t"))
                .allMatch(l -> l.contains("\tCATCH\tCAUGHT\t") || l.contains("\tCATCH\tESCAPED\tnot caught in 8 schedules"));
        assertThat(lines).anyMatch(l -> l.startsWith("sql-conformance\tcorrect\tPASS\tPASS\t8 schedules")
                || l.startsWith("sql-conformance\tcorrect\tPASS\tFAILED\tvacuous: never reached"));
        assertThat(Files.readString(dir.resolve("conformance.txt"))).contains("replay: ./relaycheck sql replay --target claim-ignores-lease --db h2 --scenario ");
    }

    @Test
    void replayReproducesTheCatchStepByStep() throws Exception {
        var found = dev.relaycheck.jdbc.conformance.ConformanceCheck.run(RelayUnderTest.of(SqlVariant.ACK_IGNORES_TOKEN), DbTarget.h2(), 1, 20, null);
        var f = found.firstFailure();
        int exit = run("replay", "--target", "ack-ignores-token", "--scenario", f.scenario(), "--walk-seed", Long.toString(f.seed()));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).isEqualTo(1);
        assertThat(text).contains("model Claim(p1) -> CLAIMED").contains("differs: outbox row")
                .contains("STALE_ACK_REJECTED at step " + f.violationStep());
        assertThat(run("replay", "--target", "correct", "--scenario", f.scenario(), "--walk-seed", Long.toString(f.seed()))).isZero();
    }

    /** One crash-kill round again, as a failing round's replay line names it: the broken consumer doubles, the correct one does not. */
    @Test
    void crashReplayKillsAtTheSameCommitAgain(@TempDir Path dir) {
        int exit = run("replay", "--target", "no-dedup-marker", "--cut", "after-consumer-commit", "--nth", "1", "--batch", "1",
                "--out", dir.toString());
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text + err).isEqualTo(1);
        assertThat(text).contains("killed after-consumer-commit #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE: E1 applied 2 times")
                .contains("child: AT after-consumer-commit").contains("recovery: ").endsWith("REPRODUCED\n");
        out.reset();
        assertThat(run("replay", "--target", "correct", "--cut", "after-consumer-commit", "--out", dir.toString())).as(out + "" + err).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("killed after-consumer-commit #1 (batch 1, exit 137): recovered")
                .contains("NOT REPRODUCED");
    }
}
