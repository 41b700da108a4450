package dev.relaycheck.checker.cli;

import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.model.command.ShellWords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code relaycheck code} as a team runs it, in a child JVM, on a relay written outside relaycheck: the verdict and
 * its exit code, the report files, usage errors in one line, and shards merged to the one run's report.
 */
class CodeCliTest {
    static final String RELAYS = Path.of(TeamRelayCheck.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString();

    @TempDir
    Path dir;

    @Test
    void aBrokenRelayFailsWithItsReportWritten() throws Exception {
        ChildCli.Run r = ChildCli.run(dir, "code", "--relay", "com.team.outbox.broken.UnfencedMarkSent", "--classpath", RELAYS, "--runs", "12");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(r.out()).contains("FAILED STALE_ACK_REJECTED").contains("verdict: FAILED for relay com.team.outbox.broken.UnfencedMarkSent on h2");
        assertThat(Files.readString(dir.resolve("results/code/index.html"))).contains("STALE_ACK_REJECTED in run")
                .contains("<span class=\"mark\">&lt;== STALE_ACK_REJECTED</span>").contains("code replay --relay com.team.outbox.broken.UnfencedMarkSent");
        assertThat(dir.resolve("results/code/report.txt")).exists();
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        ChildCli.Run noRelay = ChildCli.run(dir, "code", "--runs", "3");
        assertThat(noRelay.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(noRelay.err().strip()).isEqualTo("relaycheck: --relay CLASS is required: your dev.relaycheck.code.RelayFactory");
        ChildCli.Run notAFactory = ChildCli.run(dir, "code", "--relay", "java.lang.String");
        assertThat(notAFactory.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(notAFactory.err().strip()).isEqualTo("relaycheck: java.lang.String is not a dev.relaycheck.code.RelayFactory");
        ChildCli.Run badQuery = ChildCli.run(dir, "code", "--relay", "com.team.outbox.clocks.WallClockRelay", "--classpath", RELAYS, "--runs", "1");
        assertThat(badQuery.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badQuery.err().lines().count()).isEqualTo(1);
        assertThat(badQuery.err()).contains("the relay reads the JVM's wall clock");
        ChildCli.Run badShrink = ChildCli.run(dir, "code", "--relay", "com.team.outbox.broken.UnfencedMarkSent", "--classpath", RELAYS, "--shrink", "-1");
        assertThat(badShrink.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badShrink.err().strip()).isEqualTo("relaycheck: --shrink must be at least 0, not -1");
        ChildCli.Run codeRunsAlone = ChildCli.run(dir, "check", "--code-runs", "3");
        assertThat(codeRunsAlone.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(codeRunsAlone.err().strip()).isEqualTo("relaycheck: --code-runs needs --relay CLASS");
    }

    @Test
    void withoutShrinkingTheFailureIsItsSeedsScheduleAndItsReplayReproducesIt() {
        ChildCli.Run r = ChildCli.run(dir, "code", "--relay", "com.team.outbox.broken.UnfencedMarkSent", "--classpath", RELAYS, "--runs", "12",
                "--shrink", "0");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(r.out()).containsPattern("FAILED STALE_ACK_REJECTED in run \\d+ \\((random|pct) seed -?\\d+\\): ").doesNotContain("shrunk to");
        String line = r.out().lines().filter(l -> l.startsWith("    replay: ")).findFirst().orElseThrow();
        assertThat(line).containsPattern("--strategy (random|pct) --seed -?\\d+");
        ChildCli.Run again = ChildCli.run(dir, ShellWords.split(line.substring(line.indexOf(" code replay ") + 1)).toArray(String[]::new));
        assertThat(again.exit()).as(again.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(again.out()).contains("REPRODUCED STALE_ACK_REJECTED");
    }

    @Test
    void shardsMergeToTheOneRunsReport() throws Exception {
        String[] check = {"code", "--relay", "com.team.outbox.broken.UnfencedMarkSent", "--classpath", RELAYS, "--runs", "9"};
        for (int i = 1; i <= 3; i++) {
            ChildCli.Run shard = ChildCli.run(dir, concat(check, "--shard", i + "/3", "--out", "shard-" + i));
            assertThat(shard.exit()).as(shard.toString()).isZero();
        }
        ChildCli.Run merged = ChildCli.run(dir, "merge", "shard-1", "shard-2", "shard-3", "--results", "merged");
        ChildCli.Run one = ChildCli.run(dir, concat(check, "--out", "one"));
        assertThat(merged.exit()).isEqualTo(one.exit()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(Files.readString(dir.resolve("merged/report.txt"))).isEqualTo(Files.readString(dir.resolve("one/report.txt")));
        ChildCli.Run missing = ChildCli.run(dir, "merge", "shard-1", "shard-3", "--results", "merged2");
        assertThat(missing.exit()).isEqualTo(ExitCodes.USAGE);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
