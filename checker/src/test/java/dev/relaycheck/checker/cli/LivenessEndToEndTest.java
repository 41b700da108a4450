package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's relay whose lease expires the moment it is granted, compiled outside relaycheck and checked through
 * the real CLI in a child JVM. Two pollers re-claim each other's row forever (every ack stale), so the logic
 * breaks EVENTUAL_DELIVERY and nothing else; its exact space never closes, because every claim issues a new
 * token. The search must report the healing failure with its trace, finish (tokens renumbered), keep
 * reporting it when a bound stops the search, and the walks must find it by healing along the walk.
 */
class LivenessEndToEndTest {
    /** Exit codes as the CLI documents them. */
    private static final int CLEAN = 0;
    private static final int VIOLATION = 1;
    private static final int INCOMPLETE = 4;

    private static final String LOGIC = "com.acme.LeaseExpiresAtOnce";
    private static final String ID = "acme-lease-expires-at-once";

    @TempDir
    static Path dir;
    private static Path jar;

    @BeforeAll
    static void compileTheUsersLogic() {
        jar = ChildCli.compileJar(dir, "acme-relay", Map.of(LOGIC, """
                package com.acme;
                import dev.relaycheck.model.*;
                /** Our lease column is written with the claim's own timestamp: the lease is over as it begins. */
                public final class LeaseExpiresAtOnce extends CorrectRelayLogic {
                    @Override public String id() { return "acme-lease-expires-at-once"; }
                    @Override public String description() { return "the lease expires the moment it is granted"; }
                    @Override public int leaseExpiry(int now, int leaseTicks) { return now; }
                }
                """));
    }

    private static ChildCli.Run relaycheck(String... args) {
        String[] all = new String[args.length + 6];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(new String[] {"--logic", LOGIC, "--classpath", jar.toString(), "--results",
                dir.resolve("results").toString()}, 0, all, args.length, 6);
        return ChildCli.run(dir, all);
    }

    @ParameterizedTest
    @ValueSource(strings = {"event-61-lost-ack", "double-claim"})
    void exploreReportsTheHealingFailureWithItsTraceAndFinishesWithoutABound(String scenario) {
        ChildCli.Run r = relaycheck("explore", "-s", scenario);
        assertThat(r.exit()).as(r.toString()).isEqualTo(VIOLATION);
        assertThat(r.out()).as(r.toString())
                .contains("VIOLATION EVENTUAL_DELIVERY in scenario " + scenario + " with logic " + ID)
                .contains("found by:   bfs, ").contains("then the fault-free healing phase")
                .contains("STALE").contains("<== EVENTUAL_DELIVERY")
                .contains("replay:     ./relaycheck replay rc1:")
                .contains("tokens renumbered canonically (the exact space reached token")
                .doesNotContain("INCOMPLETE").doesNotContain("stopped at");
        assertThat(r.err()).doesNotContain("Exception");

        // the printed record replays: the trace is real, on the exact model, not on renumbered states
        Path record = dir.resolve("results/failures/" + ID + "--" + scenario + "--EVENTUAL_DELIVERY.replay");
        ChildCli.Run replay = ChildCli.run(dir, "replay", record.toString(), "--classpath", jar.toString());
        assertThat(replay.exit()).as(replay.toString()).isEqualTo(VIOLATION);
        assertThat(replay.out()).contains("REPRODUCED EVENTUAL_DELIVERY");
    }

    @ParameterizedTest
    @ValueSource(strings = {"event-61-lost-ack", "double-claim"})
    void aBoundedSearchReportsTheHealingFailureItFoundOrNamesTheBound(String scenario) {
        ChildCli.Run bounded = relaycheck("explore", "-s", scenario, "--max-states", "50");
        assertThat(bounded.exit()).as(bounded.toString()).isEqualTo(VIOLATION);
        assertThat(bounded.out()).as(bounded.toString())
                .contains("VIOLATION EVENTUAL_DELIVERY in scenario " + scenario)
                .contains("found by:   bfs (healing failed before the search stopped at the --max-states bound of 50 distinct states)")
                .contains("replay:     ./relaycheck replay rc1:")
                // the verdict is the violation; that the search stopped at its bound is said beside it, for another
                // invariant may break past it
                .contains("  VIOLATION EVENTUAL_DELIVERY (INCOMPLETE besides: stopped at the --max-states bound of 50 distinct "
                        + "states; raise it (and -Xmx) or use random/pct search; an invariant not named may break past it)")
                .doesNotContain("  INCOMPLETE:");

        // too small a bound to reach a state whose healing fails: INCOMPLETE, naming the bound, never OK
        ChildCli.Run tiny = relaycheck("explore", "-s", scenario, "--max-states", "2");
        assertThat(tiny.exit()).as(tiny.toString()).isIn(VIOLATION, INCOMPLETE);
        assertThat(tiny.out()).as(tiny.toString()).contains("INCOMPLETE: stopped at the --max-states bound of 2 distinct states")
                .doesNotContain("VIOLATION");
    }

    @Test
    void exactTokensStillReportTheHealingFailureAtTheBound() {
        ChildCli.Run r = relaycheck("explore", "-s", "event-61-lost-ack", "--tokens", "exact", "--max-states", "5000");
        assertThat(r.exit()).as(r.toString()).isEqualTo(VIOLATION);
        assertThat(r.out()).contains("VIOLATION EVENTUAL_DELIVERY")
                .contains("healing failed before the search stopped at the --max-states bound of 5000 distinct states")
                .doesNotContain("renumbered");
        ChildCli.Run bad = relaycheck("explore", "-s", "event-61-lost-ack", "--tokens", "sorted");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err().trim()).isEqualTo("relaycheck: --tokens must be auto, exact or canonical, not 'sorted'");
    }

    /** Asked for, renumbering runs on the readable model and says so; it merges states the exact search keeps apart. */
    @Test
    void renumberedTokensOnAShippedLogicRunOnTheReadableModelSayingSo() {
        ChildCli.Run r = ChildCli.run(dir, "explore", "-s", "event-61-lost-ack", "--tokens", "canonical",
                "--results", dir.resolve("results").toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(CLEAN);
        assertThat(r.out()).contains("bfs correct on event-61-lost-ack: 65 distinct states")
                .contains("engine readable, tokens renumbered canonically (the packed engine keeps exact tokens)");
        ChildCli.Run packed = ChildCli.run(dir, "explore", "-s", "event-61-lost-ack", "--tokens", "canonical",
                "--engine", "packed", "--results", dir.resolve("results").toString());
        assertThat(packed.exit()).isEqualTo(2);
        assertThat(packed.err().trim()).startsWith("relaycheck: the packed engine keeps exact tokens").doesNotContain("\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"random", "pct"})
    void walksFindItByHealingAlongTheWalk(String strategy) {
        for (String scenario : new String[] {"event-61-lost-ack", "double-claim"}) {
            // the clock bound follows the lease the logic grants, and a lease that expires at once needs no tick;
            // two ticks give the walks the room (and the healing points) this test was written with
            ChildCli.Run r = relaycheck("random", "-s", scenario, "--ticks", "2", "--strategy", strategy, "--seed", "5",
                    "--runs", "200");
            assertThat(r.exit()).as(r.toString()).isEqualTo(VIOLATION);
            assertThat(r.out()).as(r.toString())
                    .contains("VIOLATION EVENTUAL_DELIVERY in scenario " + scenario)
                    .contains("found by:   " + strategy + " walk #").contains("then the fault-free healing phase")
                    .contains("replay:     ./relaycheck replay rc1:");

            // unshrunk, the reported walk stops at the healing point that failed: after a multiple of
            // --heal-every steps, short of the walk's --max-depth
            ChildCli.Run raw = relaycheck("random", "-s", scenario, "--ticks", "2", "--strategy", strategy, "--seed", "5",
                    "--runs", "200",
                    "--no-shrink", "--heal-every", "4", "--max-depth", "60");
            Matcher m = Pattern.compile("found by:   " + strategy + " walk #\\d+ \\(seed -?\\d+\\), (\\d+) steps, then the fault-free healing phase")
                    .matcher(raw.out());
            assertThat(m.find()).as(raw.toString()).isTrue();
            int steps = Integer.parseInt(m.group(1));
            assertThat(steps % 4).as(raw.out()).isZero();
            assertThat(steps).as(raw.out()).isLessThan(60);
        }
    }

    /** The same commands on the correct logic: clean, with the reference counts the exact search has always had. */
    @Test
    void theCorrectLogicPassesTheSameScenariosWithItsPinnedCounts() {
        for (String[] pinned : new String[][] {{"event-61-lost-ack", "70"}, {"double-claim", "225"}}) {
            ChildCli.Run r = ChildCli.run(dir, "explore", "-s", pinned[0], "--results", dir.resolve("results").toString());
            assertThat(r.exit()).as(r.toString()).isEqualTo(CLEAN);
            assertThat(r.out()).contains("bfs correct on " + pinned[0] + ": " + pinned[1] + " distinct states")
                    .contains("  OK (").doesNotContain("renumbered");
            ChildCli.Run exact = ChildCli.run(dir, "explore", "-s", pinned[0], "--tokens", "exact", "--engine", "readable",
                    "--results", dir.resolve("results").toString());
            assertThat(countLine(exact.out())).isEqualTo(countLine(r.out()));
            for (String strategy : new String[] {"random", "pct"}) {
                ChildCli.Run walks = ChildCli.run(dir, "random", "-s", pinned[0], "--strategy", strategy, "--seed", "5",
                        "--runs", "200", "--results", dir.resolve("results").toString());
                assertThat(walks.exit()).as(walks.toString()).isEqualTo(CLEAN);
                assertThat(walks.out()).contains("  OK (");
            }
        }
    }

    private static String countLine(String out) {
        Matcher m = Pattern.compile("(?m)^bfs correct on .*$").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return m.group();
    }
}
