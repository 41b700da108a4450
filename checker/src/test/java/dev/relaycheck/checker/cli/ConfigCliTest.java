package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code relaycheck config} as a person runs it: the real main in a child JVM. It answers
 * whether a redelivery can outlive the consumer's dedup marker, with the worst-case timeline as the witness.
 */
class ConfigCliTest {
    @TempDir
    Path dir;

    @Test
    void theIssuesExampleIsSafeAndSaysByHowMuch() {
        // attempts claim at 0, 40s, 1m30s, 2m40s, 4m30s (lease 30s, backoff 10s doubling); the last works 30s and
        // stalls 2m: it commits at 7m, long before the marker's hour is up
        ChildCli.Run r = ChildCli.run(dir, "config", "--lease", "30s", "--max-attempts", "5", "--backoff", "10s*2",
                "--retention", "1h", "--max-stall", "2m");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(r.out()).contains("relaycheck config: lease 30s, max attempts 5, backoff 10s*2, retention 1h, max stall 2m")
                .contains("  4m30s      attempt 5 claims the row after a backoff of 1m20s (lease to 5m)")
                .contains("  7m         attempt 5 (the last), having worked its whole lease and stalled 2m, commits: the last "
                        + "redelivery, answered DUPLICATE by the marker")
                .contains("  1h         the consumer's cleanup purges the marker (retention 1h)")
                .contains("SAFE: the marker (kept 1h) outlives the last redelivery (7m) by 53m");
        assertThat(r.out().indexOf("7m  ")).as("the timeline is in time order").isLessThan(r.out().indexOf("1h  "));
        assertThat(r.err()).isEmpty();
    }

    @Test
    void aRetentionInsideTheRedeliveryWindowIsAViolationWithItsTimeline() {
        // attempt 4 claims at 2m40s; working its lease and stalling 2m it commits at 5m10s, after the 5m purge
        ChildCli.Run r = ChildCli.run(dir, "config", "--lease", "30s", "--max-attempts", "5", "--backoff", "10s*2",
                "--retention", "5m", "--max-stall", "2m");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.VIOLATION);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).contains(
                "  0s         attempt 1 claims the row (lease to 30s); its consumer commits at once: marker written",
                "  2m40s      attempt 4 claims the row after a backoff of 40s (lease to 3m10s)",
                "  5m         the consumer's cleanup purges the marker (retention 5m)",
                "  5m10s      attempt 4's poller works its whole lease, stalls 2m and commits its delivery: the marker is "
                        + "gone, so the effect is applied again (EFFECT_AT_MOST_ONCE)");
        assertThat(r.out()).doesNotContain("attempt 5").endsWith(
                "UNSAFE: EFFECT_AT_MOST_ONCE: a redelivery can commit at 5m10s, after the marker is purged at 5m; keep "
                        + "markers longer than the whole redelivery window, or bound attempts, backoff or stalls\n");
    }

    @Test
    void aRedeliveryAtThePurgeInstantIsUnsafeAndOneMillisecondMoreIsSafe() {
        // lease 1m, no backoff, 2 attempts, no stall: the retry claims at 1m and commits by 2m
        String[] base = {"config", "--lease", "1m", "--max-attempts", "2", "--max-stall", "0", "--retention"};
        assertThat(run(base, "2m").exit()).isEqualTo(ExitCodes.VIOLATION);
        ChildCli.Run safe = run(base, "2m1ms");
        assertThat(safe.exit()).as(safe.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(safe.out()).contains("outlives the last redelivery (2m) by 1ms");
    }

    @Test
    void backoffListsRepeatTheirLastDelayAndOneAttemptNeverRedelivers() {
        ChildCli.Run list = ChildCli.run(dir, "config", "--lease", "10s", "--max-attempts", "4", "--backoff", "5s,1m",
                "--retention", "10m", "--max-stall", "30s");
        assertThat(list.out()).contains("attempt 2 claims the row after a backoff of 5s (lease to 25s)")
                .contains("attempt 3 claims the row after a backoff of 1m (lease to 1m35s)")
                .contains("attempt 4 claims the row after a backoff of 1m (lease to 2m45s)")
                .contains("3m15s      attempt 4 (the last), having worked its whole lease and stalled 30s");
        assertThat(list.exit()).isEqualTo(ExitCodes.CLEAN);
        ChildCli.Run once = ChildCli.run(dir, "config", "--lease", "10s", "--max-attempts", "1", "--retention", "0",
                "--max-stall", "1h");
        assertThat(once.exit()).as(once.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(once.out()).contains("with --max-attempts 1 the row is never redelivered");
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        for (String[] args : List.of(
                new String[] {"--lease", "30x", "--max-attempts", "5", "--retention", "1h", "--max-stall", "2m"},
                new String[] {"--lease", "0", "--max-attempts", "5", "--retention", "1h", "--max-stall", "2m"},
                new String[] {"--lease", "30s", "--max-attempts", "0", "--retention", "1h", "--max-stall", "2m"},
                new String[] {"--lease", "30s", "--max-attempts", "five", "--retention", "1h", "--max-stall", "2m"},
                new String[] {"--lease", "30s", "--max-attempts", "5", "--backoff", "10s*0", "--retention", "1h", "--max-stall", "2m"},
                new String[] {"--lease", "30s", "--max-attempts", "5", "--backoff", "10s,,20s", "--retention", "1h", "--max-stall", "2m"},
                // a backoff that outgrows a long before the retention is reached; a duration past a long
                new String[] {"--lease", "30s", "--max-attempts", "1000", "--backoff", "1d*1000", "--retention", "100000000000d", "--max-stall", "2m"},
                new String[] {"--lease", "30s", "--max-attempts", "5", "--retention", "999999999999d", "--max-stall", "2m"},
                new String[] {"--lease", "30s", "--max-attempts", "5", "--max-stall", "2m"})) {
            String[] full = new String[args.length + 1];
            full[0] = "config";
            System.arraycopy(args, 0, full, 1, args.length);
            ChildCli.Run r = ChildCli.run(dir, full);
            assertThat(r.exit()).as(String.join(" ", args) + ": " + r).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err().trim()).as(r.toString()).startsWith("relaycheck: ").doesNotContain("\n")
                    .doesNotContain("Exception");
            assertThat(r.out()).isEmpty();
        }
        assertThat(ChildCli.run(dir, "config", "--lease", "30x", "--max-attempts", "5", "--retention", "1h",
                "--max-stall", "2m").err()).contains("--lease '30x' is not a duration like 500ms, 30s, 2m, 1h, 7d or 1h30m");
    }

    private ChildCli.Run run(String[] base, String last) {
        String[] full = new String[base.length + 1];
        System.arraycopy(base, 0, full, 0, base.length);
        full[base.length] = last;
        return ChildCli.run(dir, full);
    }
}
