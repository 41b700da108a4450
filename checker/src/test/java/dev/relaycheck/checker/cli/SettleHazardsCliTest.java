package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dedup retention, ack scope and unmatched settles through the real CLI in a child JVM: a variant's counterexample (with the
 * consumer's Purge step) is printed and replays; the correct logic passes each new scenario, on the packed engine.
 */
class SettleHazardsCliTest {
    @TempDir
    Path dir;

    @Test
    void aPurgedMarkerCounterexamplePrintsAndReplays() {
        ChildCli.Run found = ChildCli.run(dir, "explore", "--logic", "purge-at-ack", "-s", "marker-retention");
        assertThat(found.exit()).as(found.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(found.out()).contains("EFFECT_AT_MOST_ONCE").contains("Purge(E1)").contains("PURGED marker E1 of E1")
                .contains("purged by the retention policy");
        Matcher m = Pattern.compile("relaycheck replay (rc1:\\S+)").matcher(found.out());
        assertThat(m.find()).as(found.out()).isTrue();
        ChildCli.Run replayed = ChildCli.run(dir, "replay", m.group(1));
        assertThat(replayed.exit()).as(replayed.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(replayed.out()).contains("REPRODUCED EFFECT_AT_MOST_ONCE");
    }

    @Test
    void theCorrectLogicPassesTheNewScenariosOnThePackedEngine() {
        ChildCli.Run r = ChildCli.run(dir, "explore", "--logic", "correct", "-s", "marker-retention", "-s", "batch-ack",
                "-s", "unmatched-settle");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(r.out()).contains("engine packed").doesNotContain("declined");
        assertThat(r.out()).contains("387").contains("228").contains("303");
    }

    @Test
    void theBatchAckAndIgnoredResultVariantsAreCaughtByTheirInvariants() {
        ChildCli.Run batch = ChildCli.run(dir, "explore", "--logic", "batch-ack-whole-batch", "-s", "batch-ack");
        assertThat(batch.exit()).as(batch.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(batch.out()).contains("NO_LOST_EVENT").contains("the ack also marked [E2] DELIVERED");
        ChildCli.Run settle = ChildCli.run(dir, "explore", "--logic", "ignores-settle-result", "-s", "unmatched-settle");
        assertThat(settle.exit()).as(settle.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(settle.out()).contains("STALE_ACK_REJECTED").contains("the poller ignored that and unlocked the row by id");
    }
}
