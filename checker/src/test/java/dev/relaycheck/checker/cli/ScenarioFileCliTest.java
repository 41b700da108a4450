package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.cli.ChildCli.Run;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.ScenarioText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Scenarios of a user's own: files given to -s, override flags, scenarios --show, through the real CLI. */
class ScenarioFileCliTest {

    @TempDir
    Path dir;

    /** What a search found, without the timings (which differ run to run). */
    private static List<String> counts(String out) {
        return out.lines().map(l -> l.replaceAll("\\(\\d[^)]*\\)", "(time)")).filter(l -> !l.startsWith("progress:")).toList();
    }

    @Test
    void aShownScenarioWrittenToAFileSearchesExactlyWhatItsNameSearches() throws Exception {
        Run show = ChildCli.run(dir, "scenarios", "--show", "mixed");
        assertThat(show.exit()).as(show.toString()).isZero();
        assertThat(ScenarioText.parse(show.out(), "unused")).isEqualTo(ReferenceScenarios.mixed());
        Files.writeString(dir.resolve("my.scenario"), show.out()); // ./relaycheck scenarios --show mixed > my.scenario

        Run byFile = ChildCli.run(dir, "explore", "-s", "my.scenario", "--threads", "1");
        Run byName = ChildCli.run(dir, "explore", "-s", "mixed", "--threads", "1");
        assertThat(byFile.exit()).as(byFile.toString()).isZero();
        assertThat(counts(byFile.out())).isEqualTo(counts(byName.out()));
        assertThat(byFile.out()).contains("bfs correct on mixed: 10,011 distinct states, 27,564 transitions");
    }

    @Test
    void overrideFlagsChangeOneFieldAndTheName() {
        Run show = ChildCli.run(dir, "scenarios", "--show", "event-61-lost-ack", "--lease", "5", "--pollers", "3");
        assertThat(show.out()).contains("name event-61-lost-ack+pollers=3+lease=5\n", "pollers p1 p2 p3\n", "lease 5\n",
                "ticks lease+0\n");
        Run explore = ChildCli.run(dir, "explore", "-s", "event-61-lost-ack", "--lease", "5", "--pollers", "3",
                "--crashes", "1", "--results", dir.resolve("results").toString());
        assertThat(explore.exit()).as(explore.toString()).isZero();
        assertThat(explore.out()).contains("bfs correct on event-61-lost-ack+pollers=3+lease=5+crashes=1: ")
                .doesNotContain("on event-61-lost-ack:");
    }

    @Test
    void aUsersScenarioFileWithTheirOwnLogicFailsAndItsReplayLineReproduces() throws Exception {
        // the relay fences acks by owner, not token, and leases for two ticks more than it is asked to
        Path jar = ChildCli.compileJar(dir, "acme", Map.of("com.acme.OwnerFenced", """
                package com.acme;
                import dev.relaycheck.model.*;
                public final class OwnerFenced extends CorrectRelayLogic {
                    @Override public String id() { return "acme-owner-fenced"; }
                    @Override public int leaseExpiry(int now, int leaseTicks) { return now + leaseTicks + 2; }
                    @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending() && row.hasLease(); }
                }
                """));
        Files.writeString(dir.resolve("orders.scenario"), """
                # our order events: one SKU, two relay instances, a slow instance may ack late
                name orders-late-ack
                pollers relay-a relay-b
                stock SKU-7 5
                event ORDER-1 SKU-7 2
                event ORDER-2 SKU-7 1 payload take 2 of SKU-7
                lease 3
                ticks lease+1
                requires STALE_ACK LEASE_RECLAIMED
                """);
        Path results = dir.resolve("results");
        Run found = ChildCli.run(dir, "explore", "--logic", "com.acme.OwnerFenced", "--classpath", jar.toString(),
                "-s", "orders.scenario", "--results", results.toString());
        assertThat(found.exit()).as(found.toString()).isEqualTo(1);
        assertThat(found.out()).contains("VIOLATION STALE_ACK_REJECTED in scenario orders-late-ack with logic acme-owner-fenced");
        Matcher token = Pattern.compile("replay:\\s+\\./relaycheck replay (rc1:\\S+)").matcher(found.out());
        assertThat(token.find()).as(found.out()).isTrue();

        Run replay = ChildCli.run(dir, "replay", token.group(1), "--classpath", jar.toString());
        assertThat(replay.exit()).as(replay.toString()).isEqualTo(1);
        assertThat(replay.out()).contains("REPRODUCED STALE_ACK_REJECTED");

        Path record = results.resolve("failures/acme-owner-fenced--orders-late-ack--STALE_ACK_REJECTED.replay");
        assertThat(record).content().contains("name orders-late-ack\n", "pollers relay-a relay-b\n", "lease 3\n",
                "ticks lease+1\n", "event ORDER-2 SKU-7 1 payload take 2 of SKU-7\n");
        Run fromFile = ChildCli.run(dir, "replay", record.toString(), "--classpath", jar.toString());
        assertThat(fromFile.exit()).as(fromFile.toString()).isEqualTo(1);
    }

    /** Each file's lines are separated by ";". */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "pollers p1;stock S 1;event E1 S 1;speed 3|bad.scenario:4: unknown key 'speed'",
            "pollers p1;stock S 1;event E1 S x|bad.scenario:3: event: 'x' is not a whole number",
            "stock S 1;event E1 S 1|bad.scenario:2: no pollers",
            "pollers p1;stock S 1;event E1 S 1;ticks lease+1;ticks 3|bad.scenario:5: 'ticks' given twice",
            "name mixed;pollers p1;stock S 1;event E1 S 1|bad.scenario:1: the name 'mixed' is a shipped scenario's",
    })
    void aBadScenarioFileExitsTwoWithOneLineNamingFileAndLine(String text, String message) throws Exception {
        Files.writeString(dir.resolve("bad.scenario"), text.replace(";", "\n") + "\n");
        Run r = ChildCli.run(dir, "explore", "-s", "bad.scenario");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().trim()).startsWith("relaycheck: " + message).doesNotContain("\n");
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "explore -s no-such-thing|unknown scenario 'no-such-thing': neither a shipped one",
            "explore -s mixed --batch 0|--batch must be at least 1, not 0",
            "random -s mixed --ticks soon|--ticks: tick bound 'soon' is not a number N or lease+N",
            "check -s mixed --events 9|--events 9: scenario mixed has only 3 events",
            "scenarios --show nowhere.scenario|unknown scenario 'nowhere.scenario'",
    })
    void badScenarioArgumentsExitTwoWithOneLine(String args, String message) {
        Run r = ChildCli.run(dir, args.split(" "));
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().trim()).startsWith("relaycheck: " + message).doesNotContain("\n");
    }
}
