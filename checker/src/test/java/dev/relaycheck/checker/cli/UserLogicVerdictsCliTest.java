package dev.relaycheck.checker.cli;

import dev.relaycheck.model.testsupport.UsersLogics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Verdicts on logics written as users write them, compiled here into a jar outside the project, through {@code main}
 * in a child JVM: every sentence printed is checked against what the logic does. A relay whose restarted node takes
 * its own rows back passes with unique instance ids and fails, saying why, when ids are shared or reused; a
 * deliver-and-ack relay is told which witnesses its shape makes unreachable; a logic with two mistakes gets both
 * reported, each with its own shortest trace and a replay line that reproduces it; a logic that ends the JVM or never
 * returns gets a verdict; a logic that answers the packed engine's tables otherwise than the model (which no correct
 * relaycheck lets through silently) stops the search with one line and exit 3.
 */
class UserLogicVerdictsCliTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void compile() {
        UsersLogics.jar(dir);
    }

    private static ChildCli.Run explore(String logic, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("explore", "--logic", "com.acme." + logic, "--classpath", "acme.jar"));
        args.addAll(List.of(more));
        return ChildCli.run(dir, args.toArray(String[]::new));
    }

    @Test
    void reclaimingItsOwnLeasePassesWithUniqueIdsAndFailsNamingTheSharedOrReusedId() {
        ChildCli.Run unique = explore("ReclaimOwn", "-s", "event-61-lost-ack", "-s", "crash-restart", "-s", "mixed");
        assertThat(unique.exit()).as(unique.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(unique.out()).doesNotContain("VIOLATION");

        ChildCli.Run shared = explore("ReclaimOwn", "-s", "event-61-lost-ack", "--instance-ids", "shared");
        assertThat(shared.exit()).as(shared.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(shared.out()).contains("VIOLATION SINGLE_LIVE_LEASE in scenario event-61-lost-ack+instance-ids=shared")
                .contains("what broke: p2's claim of EVENT-61 at t=0 replaced the live lease node-1/t1/exp2 that p1 still holds: "
                        + "p1 and p2 both believe they own EVENT-61 (p1 and p2 present one instance id, node-1: instance-ids shared");
        ChildCli.Run reused = explore("ReclaimOwn", "-s", "event-61-lost-ack", "--instance-ids", "reused");
        assertThat(reused.exit()).as(reused.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(reused.out()).contains("p1 and p2 both believe they own EVENT-61 (p2 presents p1's instance id: instance-ids "
                + "reused, a restart of p1 under its id while p1 still runs");
        // the trace is the one the sentence describes: p1 claimed, and p2's claim took the row from under it
        assertThat(shared.out()).containsPattern("(?m)^ +1 +p1 +Claim\\(p1\\) +CLAIMED \\[EVENT-61/t1\\]")
                .containsPattern("(?m)^ +2 +p2 +Claim\\(p2\\) +CLAIMED \\[EVENT-61/t2 \\(re-claimed\\)\\].*<== SINGLE_LIVE_LEASE$");
    }

    @Test
    void aDeliverAndAckRelayIsToldWhichWitnessesItsShapeMakesUnreachable() {
        ChildCli.Run r = explore("DeliverAndAck", "-s", "event-61-lost-ack", "-s", "crash-restart", "-s", "batch-ack");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(r.out()).doesNotContain("VACUOUS")
                .contains("DUPLICATE_ABSORBED not applicable to this logic: its delivery and ack commit in one transaction "
                        + "(deliversAndAcksTogether)")
                .contains("ACK_MID_BATCH not applicable to this logic: each row's ack is part of its own delivery transaction")
                .contains("DUPLICATE_ABSORBED=n/a(required)");
    }

    @Test
    void everyInvariantALogicBreaksIsReportedWithItsOwnShortestTraceAndAReplayThatReproducesIt() throws Exception {
        ChildCli.Run r = explore("TwoMistakes", "-s", "mixed");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(r.out()).contains("  VIOLATION AGGREGATE_ORDER, STALE_ACK_REJECTED (")
                .contains("VIOLATION AGGREGATE_ORDER in scenario mixed with logic acme-two-mistakes\n")
                .contains("VIOLATION STALE_ACK_REJECTED in scenario mixed with logic acme-two-mistakes\n")
                .contains("found by:   bfs, 4 steps").contains("found by:   bfs, 6 steps");
        for (String invariant : List.of("AGGREGATE_ORDER", "STALE_ACK_REJECTED")) {
            Path record = dir.resolve("results/failures/acme-two-mistakes--mixed--" + invariant + ".replay");
            assertThat(record).exists();
            ChildCli.Run replay = ChildCli.run(dir, "replay", record.toString(), "--classpath", "acme.jar");
            assertThat(replay.exit()).as(replay.toString()).isEqualTo(ExitCodes.VIOLATION);
            assertThat(replay.out()).contains("REPRODUCED " + invariant + ": all ");
        }
        ChildCli.Run first = explore("TwoMistakes", "-s", "mixed", "--first-violation");
        assertThat(first.exit()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(first.out()).contains("  VIOLATION AGGREGATE_ORDER (").doesNotContain("STALE_ACK_REJECTED in scenario");
        // both engines name the same invariants with the same traces
        ChildCli.Run readable = explore("TwoMistakes", "-s", "mixed", "--engine", "readable");
        assertThat(traces(readable.out())).isEqualTo(traces(r.out()));
        assertThat(Files.readString(dir.resolve("results/failures/acme-two-mistakes--mixed--STALE_ACK_REJECTED.replay")))
                .contains("invariant STALE_ACK_REJECTED");
    }

    @Test
    void randomWalksReportEveryInvariantBrokenByTheFirstWalkThatBrokeItTheSameOnAnyThreadCount() throws Exception {
        for (String strategy : List.of("random", "pct")) {
            List<String> walks = List.of("random", "--logic", "com.acme.TwoMistakes", "--classpath", "acme.jar", "-s", "mixed",
                    "--strategy", strategy, "--runs", "300", "--seed", "3", "--results", "walks-" + strategy);
            ChildCli.Run one = ChildCli.run(dir, concat(walks, "--threads", "1"));
            assertThat(one.exit()).as(one.toString()).isEqualTo(ExitCodes.VIOLATION);
            // each shrunk, possibly to a smaller scenario (mixed.shrunk)
            assertThat(one.out()).as(strategy).containsPattern("\nVIOLATION AGGREGATE_ORDER in scenario mixed\\S* with logic acme-two-mistakes\n")
                    .containsPattern("\nVIOLATION STALE_ACK_REJECTED in scenario mixed\\S* with logic acme-two-mistakes\n")
                    .containsPattern("found by: +" + strategy + " walk #\\d+");
            ChildCli.Run two = ChildCli.run(dir, concat(walks, "--threads", "2"));
            assertThat(traces(two.out())).as(strategy).isEqualTo(traces(one.out()));
            for (String invariant : List.of("AGGREGATE_ORDER", "STALE_ACK_REJECTED")) {
                Path record;
                try (var files = Files.list(dir.resolve("walks-" + strategy + "/failures"))) {
                    record = files.filter(f -> f.getFileName().toString().endsWith("--" + invariant + ".replay")).findFirst().orElseThrow();
                }
                ChildCli.Run replay = ChildCli.run(dir, "replay", record.toString(), "--classpath", "acme.jar");
                assertThat(replay.out()).as(replay.toString()).contains("REPRODUCED " + invariant + ": all ");
            }
            ChildCli.Run first = ChildCli.run(dir, concat(walks, "--first-violation"));
            assertThat(first.exit()).isEqualTo(ExitCodes.VIOLATION);
            assertThat(first.out().split("\nVIOLATION ", -1)).as(first.out()).hasSize(2);
        }
    }

    private static String[] concat(List<String> args, String... more) {
        List<String> all = new java.util.ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** The lines of the traces (numbered steps and their headings), without the counts and timings. */
    private static List<String> traces(String out) {
        return out.lines().filter(l -> l.startsWith("VIOLATION ") || l.matches(" +\\d+ .*")).toList();
    }

    @Test
    void aLogicThatCallsSystemExitGetsOneLineAndANonZeroExit() {
        ChildCli.Run r = explore("ExitsOnAck", "-s", "event-61-lost-ack");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.LOGIC_ERROR);
        assertThat(r.err().strip()).startsWith("LOGIC-ERROR in logic acme-exits: acceptsAck(EVENT-61:PENDING[p1/t1/exp2], t1, p1, now=0) "
                + "called System.exit (at com.acme.ExitsOnAck.acceptsAck(").doesNotContain("\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aDecisionThatNeverReturnsIsALogicErrorNamingItsQuestionAndStackWithinTheGivenLimit() {
        ChildCli.Run r = explore("LoopsInClaim", "-s", "event-61-lost-ack", "--decision-timeout", "1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.LOGIC_ERROR);
        assertThat(r.out()).startsWith("LOGIC-ERROR in logic acme-loops: isClaimable(EVENT-61:PENDING, [EVENT-61:PENDING], now=0, p1) "
                + "did not return within 1 s (the decision time limit").contains("raise it with --decision-timeout SECONDS")
                .contains("  stack:      com.acme.LoopsInClaim.isClaimable(");
    }

    @Test
    void aLogicTheEnginesDisagreeOnStopsTheSearchWithOneLineAndExit3() {
        ChildCli.Run r = explore("TwoFaced", "-s", "aggregate-order");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.INTERNAL);
        String line = r.err().lines().filter(l -> !l.startsWith("progress:")).reduce("", (a, b) -> a + b + "\n").strip();
        assertThat(line).startsWith("relaycheck: the packed engine disagrees with the readable model on logic acme-two-faced's "
                + "isClaimable in scenario aggregate-order, at state t=0 ").doesNotContain("\n")
                .endsWith("a relaycheck bug: --engine readable checks the logic on the model itself");
        assertThat(r.out()).doesNotContain("OK").doesNotContain("VIOLATION");
        // on the model itself, the mistake the readable answers make is found
        ChildCli.Run readable = explore("TwoFaced", "-s", "aggregate-order", "--engine", "readable");
        assertThat(readable.exit()).as(readable.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(readable.out()).contains("VIOLATION AGGREGATE_ORDER in scenario aggregate-order with logic acme-two-faced");
    }
}
