package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lease, settle and timing hazards through the real CLI in a child process: explore finds each, the printed replay line
 * (with the skews the search chose, for clock skew) reproduces it, users' logics compiled here are judged,
 * and the packed engine's fallback is noted.
 */
class TimingHazardsCliTest {

    @TempDir
    static Path dir;
    static Path jar;

    @BeforeAll
    static void compileTheLogics() {
        Map<String, String> sources = new TreeMap<>();
        sources.put("com.acme.HeartbeatByOwner", """
                package com.acme;
                import dev.relaycheck.model.*;
                public final class HeartbeatByOwner extends CorrectRelayLogic {
                    @Override public String id() { return "acme-heartbeat-by-owner"; }
                    // UPDATE outbox SET lease_expiry = ? WHERE id = ? AND lease_owner = :host AND lease_expiry > :now
                    // every poller runs on one host, so the owner always matches: the token is never checked
                    @Override public boolean acceptsRenewal(OutboxRow row, long token, String poller, int now) {
                        return row.isPending() && row.hasLease() && !row.lease().expiredAt(now);
                    }
                }
                """);
        sources.put("com.acme.DbClockRelay", """
                package com.acme;
                import dev.relaycheck.model.*;
                import java.util.List;
                public final class DbClockRelay extends CorrectRelayLogic {
                    @Override public String id() { return "acme-db-clock"; }
                    // reads its own clock, but judges the lease on the database's (now): skew cannot hurt it
                    @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
                        return row.isPending() && row.unleasedAt(now) && isHeadOfAggregate(row, outbox);
                    }
                }
                """);
        sources.put("com.acme.AppClockRelay", """
                package com.acme;
                import dev.relaycheck.model.*;
                import java.util.List;
                public final class AppClockRelay extends CorrectRelayLogic {
                    @Override public String id() { return "acme-app-clock"; }
                    @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
                        return row.isPending() && row.unleasedAt(pollerClock) && isHeadOfAggregate(row, outbox);
                    }
                }
                """);
        jar = ChildCli.compileJar(dir, "acme", sources);
    }

    private static String token(String out) {
        Matcher m = Pattern.compile("relaycheck replay (rc1:\\S+)").matcher(out);
        assertThat(m.find()).as("a replay line in:\n%s", out).isTrue();
        return m.group(1);
    }

    @Test
    void clockSkewIsFoundAndItsReplayLineCarriesTheSkews() throws Exception {
        ChildCli.Run found = ChildCli.run(dir, "explore", "--logic", "app-clock-expiry", "-s", "clock-skew");
        assertThat(found.exit()).as(found.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(found.out()).contains("VIOLATION SINGLE_LIVE_LEASE in scenario clock-skew with logic app-clock-expiry")
                .contains("Skew(p1,-1)").contains("Skew(p2,+1)").contains("<== SINGLE_LIVE_LEASE")
                .contains("engine packed");
        Path record = dir.resolve("results/failures/app-clock-expiry--clock-skew--SINGLE_LIVE_LEASE.replay");
        assertThat(Files.readString(record)).contains("max-skew 1\n").contains("step Skew(p2,+1) => SKEWED p2 clock db+1\n");

        ChildCli.Run replayed = ChildCli.run(dir, "replay", token(found.out()));
        assertThat(replayed.exit()).as(replayed.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(replayed.out()).contains("Skew(p2,+1)").contains("REPRODUCED SINGLE_LIVE_LEASE: all 4 steps matched");

        // the same record with p2's clock right: the claim it recorded is not enabled, so it does not reproduce
        Files.writeString(record, Files.readString(record).replace("step Skew(p2,+1) => SKEWED p2 clock db+1",
                "step Skew(p2,0) => SKEWED p2 clock db+0"));
        ChildCli.Run unskewed = ChildCli.run(dir, "replay", record.toString());
        assertThat(unskewed.exit()).as(unskewed.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(unskewed.out()).startsWith("NOT REPRODUCED: step 4");
    }

    @Test
    void renewalAndCommitVisibilityVariantsAreFoundAndReplayed() {
        for (String[] c : new String[][] {{"renewal-by-owner", "lease-renewal", "SINGLE_LIVE_LEASE"},
                {"renewal-ignores-expiry", "lease-renewal", "SINGLE_LIVE_LEASE"},
                {"cursor-by-sequence", "commit-visibility", "NO_LOST_EVENT"}}) {
            ChildCli.Run found = ChildCli.run(dir, "explore", "--logic", c[0], "-s", c[1]);
            assertThat(found.exit()).as(found.toString()).isEqualTo(ExitCodes.VIOLATION);
            assertThat(found.out()).contains("VIOLATION " + c[2] + " in scenario " + c[1] + " with logic " + c[0]);
            ChildCli.Run replayed = ChildCli.run(dir, "replay", token(found.out()));
            assertThat(replayed.exit()).as(replayed.toString()).isEqualTo(ExitCodes.VIOLATION);
            assertThat(replayed.out()).contains("REPRODUCED " + c[2]);
        }
    }

    @Test
    void theCorrectLogicPassesTheNewScenarios() {
        ChildCli.Run r = ChildCli.run(dir, "explore", "-s", "lease-renewal", "-s", "clock-skew", "-s", "commit-visibility");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(r.out()).contains("3 of 3 scenarios passed").contains("LEASE_RENEWED=").contains("RENEWAL_REFUSED=")
                .contains("CLOCK_SKEWED=").contains("LATE_COMMIT=");
    }

    @Test
    void usersLogicsAreJudgedOnTheNewHazards() {
        ChildCli.Run byOwner = ChildCli.run(dir, "explore", "--logic", "com.acme.HeartbeatByOwner", "--classpath", jar.toString(),
                "-s", "lease-renewal");
        assertThat(byOwner.exit()).as(byOwner.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(byOwner.out()).contains("VIOLATION SINGLE_LIVE_LEASE").contains("Renew(p1,E1,t1)");

        ChildCli.Run dbClock = ChildCli.run(dir, "explore", "--logic", "com.acme.DbClockRelay", "--classpath", jar.toString(),
                "-s", "clock-skew");
        assertThat(dbClock.exit()).as(dbClock.toString()).isEqualTo(ExitCodes.CLEAN);

        ChildCli.Run appClock = ChildCli.run(dir, "explore", "--logic", "com.acme.AppClockRelay", "--classpath", jar.toString(),
                "-s", "clock-skew");
        assertThat(appClock.exit()).as(appClock.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(appClock.out()).contains("VIOLATION SINGLE_LIVE_LEASE").contains("--classpath");
        ChildCli.Run replayed = ChildCli.run(dir, "replay", token(appClock.out()), "--classpath", jar.toString());
        assertThat(replayed.exit()).as(replayed.toString()).isEqualTo(ExitCodes.VIOLATION);
    }

    @Test
    void aBadSkewInAScenarioFileIsOneLineAndExitTwo() throws Exception {
        Path file = Files.writeString(dir.resolve("skewed.scenario"), "pollers p1 p2\nstock SKU-1 5\nevent E1 SKU-1 1\nmax-skew lots\n");
        ChildCli.Run r = ChildCli.run(dir, "explore", "-s", file.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err().trim()).contains("skewed.scenario:4").contains("max-skew").doesNotContain("\n");
    }
}
