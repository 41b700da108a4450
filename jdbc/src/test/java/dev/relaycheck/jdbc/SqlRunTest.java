package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.result.SqlReplayLine;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.shard.Shard;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlRunTest {

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

    private int run(SqlOptions options) {
        return SqlRun.run(options, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static SqlOptions replay(String target, SqlOptions.Replay replay, Path dir) {
        return new SqlOptions("replay", RelaySpec.of(target, null, null, null, null), "h2", true, null, 1, null, dir, Shard.WHOLE,
                List.of(), replay);
    }

    /** What does not go together is one line, in the options' words; the picocli side is SqlCommandTest's. */
    @Test
    void optionsThatDoNotGoTogetherAreOneLine() {
        RelaySpec reference = RelaySpec.REFERENCE;
        assertThatThrownBy(() -> SqlOptions.of("bogus", reference, "h2")).hasMessage(
                "unknown command 'bogus' (all, conformance, race, crash, replay, template)");
        assertThatThrownBy(() -> new SqlOptions("crash", reference, "h2", true, null, 1, 0, null, Shard.WHOLE, List.of(), null))
                .hasMessage("--rounds must be between 1 and 1000000, got 0");
        assertThatThrownBy(() -> new SqlOptions("race", reference, "h2", true, null, 1, null, null, new Shard(1, 2), List.of(), null))
                .hasMessageStartingWith("--shard splits the conformance schedules");
        assertThatThrownBy(() -> SqlOptions.Replay.of("replay", null, null, null, null, null, null, null, null))
                .hasMessageStartingWith("replay needs --scenario and --walk-seed");
        assertThatThrownBy(() -> SqlOptions.Replay.of("replay", "mixed", 1L, "nowhere", null, null, null, null, null))
                .hasMessageStartingWith("unknown --cut 'nowhere' (after-producer-commit, ");
        assertThatThrownBy(() -> SqlOptions.Replay.of("replay", "nope", 1L, null, null, null, null, null, null))
                .hasMessage("unknown scenario 'nope'");
        assertThatThrownBy(() -> SqlOptions.Replay.of("crash", null, null, null, 1, null, null, null, null))
                .hasMessage("--cut, --nth and --batch belong to 'replay' (one crash-kill round)");
        assertThatThrownBy(() -> SqlOptions.Replay.of("race", null, null, null, null, null, 1L, null, null))
                .hasMessage("--race-seed and --shared-database belong to 'replay' (one race)");
        assertThatThrownBy(() -> SqlOptions.Replay.of("replay", null, null, "after-claim", null, null, 1L, null, null))
                .hasMessage("replay takes one of --race-seed, --cut or --scenario");
        assertThat(SqlOptions.Replay.of("replay", null, null, "after-claim", null, null, null, null, null))
                .isEqualTo(new SqlOptions.Kill(CutPoint.AFTER_CLAIM, 1, 1));
        assertThat(SqlOptions.Replay.of("conformance", null, null, null, null, null, null, null, null)).isNull();
        assertThatThrownBy(() -> SqlOptions.Replay.of("conformance", null, null, null, null, null, null, null, List.of("NO_LOST_EVENT")))
                .hasMessage("--judge belongs to 'replay' of a conformance walk (--scenario, --walk-seed)");
        assertThatThrownBy(() -> SqlOptions.Replay.of("replay", "mixed", 1L, null, null, null, null, null, List.of("NO_SUCH")))
                .hasMessageStartingWith("unknown invariant 'NO_SUCH' in --judge (EFFECT_AT_MOST_ONCE, ");
        assertThat(SqlOptions.Replay.of("replay", "mixed", 1L, null, null, null, null, null, List.of("AGGREGATE_ORDER", "NO_LOST_EVENT")))
                .isEqualTo(new SqlOptions.Walk("mixed", 1L, java.util.EnumSet.of(Invariant.NO_LOST_EVENT, Invariant.AGGREGATE_ORDER)));
    }

    /** A relay that cannot be loaded and a database relaycheck does not know are usage errors: one line, exit 2. */
    @Test
    void aBadRelayOrDatabaseExits2WithOneLine() {
        for (SqlOptions o : List.of(SqlOptions.of("conformance", RelaySpec.of(null, null, "/nowhere/relay.sql", null, null), "h2"),
                SqlOptions.of("conformance", RelaySpec.of(null, null, null, "com.acme.Nope", null), "h2"),
                SqlOptions.of("conformance", RelaySpec.REFERENCE, "oracle"))) {
            out.reset();
            err.reset();
            assertThat(run(o)).as(o.toString()).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8).lines().count()).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("relaycheck sql: ").doesNotContain("Exception");
            assertThat(out.size()).isZero();
        }
    }

    @Test
    void conformanceWritesSortedSummaryAndKeepsOtherChecksRows(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("summary.tsv"), SummaryRow.HEADER + "\nsql-race\tcorrect\tPASS\tPASS\tearlier run\n"
                + "sql-conformance\tcorrect\tPASS\tFAILED\tstale row, replaced\n");
        int exit = run(new SqlOptions("conformance", RelaySpec.REFERENCE, "h2", true, 1, 5, null, dir, Shard.WHOLE, List.of(), null));
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
        SqlOptions.Walk walk = new SqlOptions.Walk(f.scenario(), f.seed());
        int exit = run(replay("ack-ignores-token", walk, null));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).isEqualTo(1);
        assertThat(text).contains("model Claim(p1) -> CLAIMED").contains("differs: outbox row")
                .contains("STALE_ACK_REJECTED at step " + f.violationStep());
        assertThat(run(replay("correct", walk, null))).isZero();
    }

    /** One crash-kill round again, as a failing round's replay line names it: the broken consumer doubles, the correct one does not. */
    @Test
    void crashReplayKillsAtTheSameCommitAgain(@TempDir Path dir) {
        SqlOptions.Kill afterConsumerCommit = new SqlOptions.Kill(CutPoint.AFTER_CONSUMER_COMMIT, 1, 1);
        int exit = run(replay("no-dedup-marker", afterConsumerCommit, dir));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text + err).isEqualTo(1);
        assertThat(text).contains("killed after-consumer-commit #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE: E1 applied 2 times")
                .contains("child: AT after-consumer-commit").contains("recovery: ").endsWith("REPRODUCED\n");
        out.reset();
        assertThat(run(replay("correct", afterConsumerCommit, dir))).as(out + "" + err).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("killed after-consumer-commit #1 (batch 1, exit 137): recovered")
                .contains("NOT REPRODUCED");
    }
}
