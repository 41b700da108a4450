package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class CliTest {

    @TempDir
    Path results;

    record Run(int exit, String out, String err) {
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = RelaycheckCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    private String[] withResults(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--results");
        all.add(results.toString());
        return all.toArray(String[]::new);
    }

    private static String replayToken(String output) {
        Matcher m = Pattern.compile("relaycheck replay (rc1:\\S+)").matcher(output);
        assertThat(m.find()).as("a replay line in:\n%s", output).isTrue();
        return m.group(1);
    }

    /** The trace block of an output: from VIOLATION up to the replay line. */
    private static String trace(String output) {
        Matcher m = Pattern.compile("(?m)^VIOLATION \\S+ in scenario").matcher(output);
        assertThat(m.find()).isTrue();
        int start = m.start();
        int end = output.indexOf("  replay:", start);
        return output.substring(start, end);
    }

    @Test
    void symmetryOverPollersOnTheReadableEngineIsAUsageError() {
        Run run = cli(withResults("explore", "-s", "event-61-lost-ack", "--symmetry", "pollers", "--engine", "readable"));
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo(
                "relaycheck: --symmetry pollers runs on the packed engine: drop --engine readable, or --symmetry");
    }

    @Test
    void exploreFindsAViolationPrintsAReplayLineAndTheReplayReproducesTheSameTrace() {
        Run found = cli(withResults("explore", "--logic", "ack-ignores-token", "-s", "stale-ack-after-expiry"));
        assertThat(found.exit()).isEqualTo(1);
        assertThat(found.out()).contains("VIOLATION STALE_ACK_REJECTED").contains("<== STALE_ACK_REJECTED");
        assertThat(results.resolve("failures/ack-ignores-token--stale-ack-after-expiry--STALE_ACK_REJECTED.replay")).exists();

        Run replayed = cli("replay", replayToken(found.out()));
        assertThat(replayed.exit()).isEqualTo(1);
        assertThat(replayed.out()).contains("REPRODUCED STALE_ACK_REJECTED");
        assertThat(replayed.out()).startsWith(trace(found.out()));

        Run fromFile = cli("replay", results.resolve("failures/ack-ignores-token--stale-ack-after-expiry--STALE_ACK_REJECTED.replay").toString());
        assertThat(fromFile.out()).isEqualTo(replayed.out());
    }

    @Test
    void bothEnginesPrintTheSameSearchAndTheSameCounterexample() {
        for (String logic : List.of("correct", "ack-ignores-token")) {
            Run packed = cli(withResults("explore", "--logic", logic, "-s", "mixed", "--engine", "packed", "--threads", "2"));
            Run readable = cli(withResults("explore", "--logic", logic, "-s", "mixed", "--engine", "readable"));
            assertThat(packed.out()).contains("engine packed");
            assertThat(readable.out()).contains("engine readable");
            assertThat(withoutTimings(packed.out())).isEqualTo(withoutTimings(readable.out()));
        }
    }

    @Test
    void replayAgainstAFixedLogicSaysItNoLongerReproducesAndWhere() {
        Run found = cli(withResults("explore", "--logic", "ack-ignores-token", "-s", "stale-ack-after-expiry"));
        String token = replayToken(found.out());
        Run refused = cli("replay", token, "--logic", "correct");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err().trim()).contains("is for logic 'ack-ignores-token', not 'correct'").doesNotContain("\n");
    }

    @Test
    void randomWithTheSameSeedPrintsTheSameBytes() {
        String[] args = withResults("random", "--logic", "no-dedup-marker", "-s", "soak", "--seed", "5", "--runs", "500", "--threads", "2");
        Run a = cli(args);
        Run b = cli(args);
        assertThat(a.exit()).isEqualTo(1);
        assertThat(withoutTimings(b.out())).isEqualTo(withoutTimings(a.out()));
        Run replay = cli("replay", replayToken(a.out()));
        assertThat(replay.out()).contains("REPRODUCED EFFECT_AT_MOST_ONCE").contains("found by:   pct walk #");
    }

    /** Output with the wall-clock parts (time, rate) and the engine that ran it left out. */
    private static String withoutTimings(String s) {
        return s.replaceAll("\\(\\d+\\.\\d+ s, [\\d,]+ states/s, engine [a-z]+", "(TIME");
    }

    @Test
    void checkOnSmallScenariosPassesAndPrintsTheKillMatrix() {
        Run r = cli(withResults("check", "--only", "model", "-s", "event-61-lost-ack", "-s", "stale-ack-after-expiry",
                "-s", "aggregate-order", "-s", "producer-atomicity", "-s", "crash-restart",
                "-s", "lease-renewal", "-s", "clock-skew", "-s", "commit-visibility", // these variants need their own
                "-s", "outbox-cleanup"));
        assertThat(r.out()).contains("== model kill matrix").contains("PASS: the reference logic correct passed 9 of 9 scenarios; 23 of 23 variants caught");
        assertThat(results.resolve("index.html")).exists();
        assertThat(results.resolve("summary.md")).content().startsWith("## relaycheck: PASS for the reference logic `correct`");
        assertThat(results.resolve("summary.json")).content().contains("\"schema\": \"relaycheck-summary/2\"").contains("\"outcome\": \"CLEAN\"");
        assertThat(r.exit()).isEqualTo(0);
    }

    @Test
    void checkHonoursHealEvery() {
        Run every = cli(withResults("check", "--only", "model", "-s", "event-61-lost-ack", "--heal-every", "1"));
        assertThat(every.out()).contains("bfs correct on event-61-lost-ack: 70 distinct states").contains("70 healing checks");
        Run sparse = cli(withResults("check", "--only", "model", "-s", "event-61-lost-ack"));
        assertThat(sparse.out()).contains("18 healing checks");
    }

    @Test
    void checkFailsWhenAVariantEscapes() {
        Run r = cli(withResults("check", "--only", "model", "-s", "event-61-lost-ack"));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("ESCAPED").contains("FAIL: the reference logic correct passed 1 of 1 scenarios")
                .contains("escaped every checker");
    }

    @Test
    void checkFailsWhenTheLogicUnderTestBreaks() {
        Run r = cli(withResults("check", "--only", "model", "--logic", "dedup-by-payload", "-s", "aggregate-order"));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).contains("VIOLATION NO_LOST_EVENT");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "bogus",
            "explore --scenario nope",
            "explore --logic nope",
            "explore --logic com.example.Missing",
            "explore --max-states 0",
            "explore --max-states lots",
            "random --strategy dfs",
            "random --runs 0",
            "random --time-budget soon",
            "random --seed x",
            "replay",
            "replay rc1:!!!",
            "replay rc9:abc",
            "replay rc1:eJzLKUrMS0lNAQAHDgJ3",
            "replay /nonexistent/file.replay",
            "check --logic nope",
            "check --classpath /nonexistent.jar --logic a.B",
            "check --only model,gpu",
            "check --budget huge",
            "check --threads 0",
            "explore --threads 0",
            "explore --engine turbo",
            "check --heal-every 0",
            "variants --bogus",
            "scenarios extra",
            "bench --soak-states 1",
            "bench --repeat 0",
    })
    void malformedInputExitsTwoWithOneLine(String args) {
        Run r = cli(args.split(" "));
        assertThat(r.exit()).as("%s -> %s", args, r.err()).isEqualTo(2);
        assertThat(r.err().trim().lines().count()).as("one line: %s", r.err()).isEqualTo(1);
        assertThat(r.err()).startsWith("relaycheck: ").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void recordsOfAnUnknownVersionOrMalformedAreRefused() throws Exception {
        Run found = cli(withResults("explore", "--logic", "ack-before-deliver", "-s", "event-61-lost-ack"));
        Path record = Files.list(results.resolve("failures")).findFirst().orElseThrow();
        String text = Files.readString(record);

        Files.writeString(record, text.replace("relaycheck-replay 2", "relaycheck-replay 9"));
        Run v9 = cli("replay", record.toString());
        assertThat(v9.exit()).isEqualTo(2);
        assertThat(v9.err()).contains("version 9 is not supported");

        Files.writeString(record, text.replace("end\n", ""));
        assertThat(cli("replay", record.toString()).err()).contains("no 'end' line");

        Files.writeString(record, text.replace("step Ack", "step Ackk"));
        assertThat(cli("replay", record.toString()).err()).contains("unknown step kind 'Ackk'");

        Files.writeString(record, text.replace("=> ACKED", "=> STALE"));
        Run diverged = cli("replay", record.toString());
        assertThat(diverged.exit()).isEqualTo(0);
        assertThat(diverged.out()).contains("NOT REPRODUCED: step 2: expected Ack(p1,EVENT-61,t1) => STALE");
        assertThat(found.exit()).isEqualTo(1);
    }

    @Test
    void sqlConformanceRunsOnDemandWithASeedCount() {
        Run r = cli("sql", "conformance", "--seeds", "20", "--out", results.resolve("sql").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(results.resolve("sql/summary.tsv")).content()
                .contains("sql-conformance\tcorrect\tPASS\tPASS").contains("sql-conformance\tack-ignores-token\tCATCH\tCAUGHT");
        Run bad = cli("sql", "conformance", "--seeds", "many");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err().trim().lines().count()).isEqualTo(1);
    }

    @Test
    void benchWritesEveryFigureSetAgainstItsTarget() throws Exception {
        // a relay's shape as a user's jar holds it, measured beside the reference logic
        Path jar = ChildCli.compileJar(results.resolve("shape"), "shape", java.util.Map.of("users.VersionFenced", """
                package users;
                import dev.relaycheck.model.*;
                public class VersionFenced extends CorrectRelayLogic {
                    public String id() { return "version-fenced"; }
                    public TokenPolicy tokenPolicy() { return TokenPolicy.PER_ROW_VERSION; }
                    public long issueToken(OutboxRow row, long version) { return version + 1; }
                }
                """, "users.DeliverAndAck", """
                package users;
                import dev.relaycheck.model.*;
                public class DeliverAndAck extends CorrectRelayLogic {
                    public String id() { return "deliver-and-ack"; }
                    public boolean deliversAndAcksTogether() { return true; }
                }
                """));
        Run r = cli(withResults("bench", "--soak-states", "20000", "--repeat", "3", "--shape-states", "20000",
                "--logic", "users.VersionFenced,users.DeliverAndAck", "--classpath", jar.toString()));
        assertThat(r.exit()).as(r.err()).isZero();
        String bench = Files.readString(results.resolve("bench.md"));
        assertThat(bench).isEqualTo(r.out().substring(0, r.out().indexOf("written to")));
        assertThat(bench).contains("| soak | packed | 1 | 20,000 |", "| soak | packed | 2 | 20,000 |",
                "| mixed-big | packed | 1 | 432,345 |", "| mixed-big | readable | 1 | 432,345 |",
                "soak\nruns 3 rounds, one thread then two", "at most 32 bytes per stored state",
                "## Two threads against one, round by round (soak)", "## Symmetry over pollers",
                "| mixed-big | symmetric | 2 | 75,767 |", "| mixed-big | full | 2 | 432,345 |",
                "two threads never slower than one, whatever the load", "over poller symmetry in under 4 s on two threads",
                "## Relay shapes beside the reference logic (one thread)", "| mixed-big | version-fenced | packed | 342,145 |",
                "VersionFenced within 1.5x of the reference's CPU time and bytes a state on mixed-big |",
                // a space many times smaller than the reference's is also measured beside the reference on one its size
                "| mixed-big | deliver-and-ack | packed | 36,909 |", "| soak (first 36,909 states: the size of deliver-and-ack's "
                        + "space on mixed-big) | correct | packed | 36,909 (bound) |",
                "DeliverAndAck on mixed-big against the reference on a space of its size (information; the target is the line above) | ",
                "| packed and readable engines agree on mixed-big | same states, transitions, depth, witnesses | yes |",
                "every catalogue variant caught in under a second", "## What limits it");
        assertThat(bench).containsPattern("\\| soak \\| packed \\| 1 \\| 20,000 \\| [\\d,]+ \\| [\\d.]+ \\([\\d.]+-[\\d.]+\\) \\|");
        for (int round = 1; round <= 3; round++) { // each round's pair, its speed-up and how the crew's steps fell
            assertThat(bench).containsPattern("\\| " + round + " \\| [\\d.]+ [\\d.]+ [\\d.]+ on \\d+ cores; [^|]+ \\| [\\d.]+; [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ "
                    + "\\| [\\d.]+x \\| [\\d.]+ \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\|");
        }
        for (String search : List.of("soak, 1 thread", "soak, 2 threads")) { // where the time went, phase by phase
            assertThat(bench).containsPattern("\\| " + search + " \\| [\\d.]+ s \\(\\d+%\\); \\d+ ns a state \\| [\\d.]+ s "
                    + "\\(\\d+%\\); \\d+ ns a transition \\| [\\d.]+ s \\(\\d+%\\) \\| [\\d.]+ s \\(\\d+%\\) \\|");
        }
        for (String variant : List.of("ack-ignores-token", "lease-never-expires", "outbox-outside-transaction")) {
            assertThat(bench).contains("| " + variant + " | ");
        }
    }

    @Test
    void listsVariantsAndScenarios() {
        assertThat(cli("variants").out()).contains("ack-ignores-token").contains("release-ignores-token").contains("14  ")
                .contains("ignores-settle-result").contains("app-clock-expiry").contains("22  ") // the later mistakes follow the first 14
                .contains("23  cleanup-deletes-in-flight");
        assertThat(cli("scenarios").out()).contains("event-61-lost-ack").contains("mixed-big").contains("soak")
                .contains("marker-retention").contains("batch-ack").contains("unmatched-settle")
                .contains("lease-renewal").contains("clock-skew").contains("commit-visibility").contains("outbox-cleanup");
    }
}
