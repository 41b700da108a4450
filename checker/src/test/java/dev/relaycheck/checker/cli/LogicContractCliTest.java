package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's own logic that breaks the interface's contract, compiled outside the project and run through the
 * real CLI in a child JVM: a logic that throws is a LOGIC-ERROR (exit 6) naming the method, the scenario, the
 * step and a replay line that reproduces it; a logic that is not a function (a static counter, an unseeded
 * Random) is NON-DETERMINISM (exit 7), never a pass; a correct logic using the new context passes everywhere.
 */
class LogicContractCliTest {

    @TempDir
    static Path dir;
    static Path jar;

    @BeforeAll
    static void compileTheUsersLogics() {
        jar = ChildCli.compileJar(dir, "acme-relays", Map.of(
                "com.acme.ThrowingRelay", """
                        package com.acme;
                        import dev.relaycheck.model.*;
                        /** Throws when it sees a row that was claimed a second time: a bug in the user's own code. */
                        public final class ThrowingRelay extends CorrectRelayLogic {
                            @Override public String id() { return "acme-throwing"; }
                            @Override public boolean acceptsAck(OutboxRow row, long token) {
                                if (row.currentToken() >= 2) {
                                    throw new IllegalStateException("lease table out of sync for " + row.id());
                                }
                                return super.acceptsAck(row, token);
                            }
                        }
                        """,
                "com.acme.CountingRelay", """
                        package com.acme;
                        import dev.relaycheck.model.*;
                        /** Answers the ack question from a static counter: right for 40 acks, then wrong. */
                        public final class CountingRelay extends CorrectRelayLogic {
                            static int acks;
                            @Override public String id() { return "acme-counting"; }
                            @Override public boolean acceptsAck(OutboxRow row, long token) {
                                boolean right = super.acceptsAck(row, token);
                                return ++acks <= 40 ? right : !right;
                            }
                        }
                        """,
                "com.acme.CoinRelay", """
                        package com.acme;
                        import dev.relaycheck.model.*;
                        import java.util.Random;
                        /** Accepts a valid ack when an unseeded coin says so. */
                        public final class CoinRelay extends CorrectRelayLogic {
                            private final Random coin = new Random();
                            @Override public String id() { return "acme-coin"; }
                            @Override public boolean acceptsAck(OutboxRow row, long token) {
                                return super.acceptsAck(row, token) && coin.nextBoolean();
                            }
                        }
                        """,
                "com.acme.FencedRelay", """
                        package com.acme;
                        import dev.relaycheck.model.*;
                        import java.util.List;
                        /**
                         * Written against the context overloads alone: only the lease's owner may ack or release, with
                         * the current token, and an ack also only before the lease expired (a time-fenced ack).
                         */
                        public final class FencedRelay implements RelayLogic {
                            @Override public String id() { return "acme-fenced"; }
                            @Override public String description() { return "owner, token and time fenced acks"; }
                            @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller) {
                                if (!row.isPending() || !row.unleasedAt(now)) return false;
                                for (OutboxRow other : outbox) {
                                    if (other.isPending() && other.event().aggregate().equals(row.event().aggregate())
                                            && other.event().seq() < row.event().seq()) return false;
                                }
                                return true;
                            }
                            @Override public long issueToken(OutboxRow row, long lastIssued, String poller) { return lastIssued + 1; }
                            @Override public int leaseExpiry(int now, int leaseTicks) { return now + leaseTicks; }
                            @Override public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
                                return row.isPending() && row.hasLease() && row.lease().token() == token
                                        && row.lease().owner().equals(poller) && !row.lease().expiredAt(now);
                            }
                            @Override public boolean acceptsRelease(OutboxRow row, long token, String poller, int now) {
                                return row.isPending() && row.hasLease() && row.lease().token() == token
                                        && row.lease().owner().equals(poller);
                            }
                            @Override public String dedupKey(Event event, long deliveryToken) { return event.id(); }
                        }
                        """));
    }

    private static ChildCli.Run relaycheck(String... args) {
        return ChildCli.run(dir, args);
    }

    private static String replayToken(String out) {
        Matcher m = Pattern.compile("replay:\\s+\\./relaycheck replay (rc1:\\S+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return m.group(1);
    }

    /** The fault's block: from its verdict line to its replay line, without the record's path. */
    private static String faultBlock(String out, String verdict) {
        int from = out.indexOf("\n" + verdict + " in logic ");
        int to = out.indexOf("  record:", from);
        assertThat(from).as(out).isNotNegative();
        return out.substring(from + 1, to);
    }

    @Test
    void aLogicThatThrowsIsALogicErrorWithItsMethodScenarioStepAndAReplayThatReproducesIt() {
        ChildCli.Run run = relaycheck("explore", "--logic", "com.acme.ThrowingRelay", "--classpath", jar.toString(),
                "-s", "stale-ack-after-expiry", "--threads", "1");
        assertThat(run.exit()).as(run.toString()).isEqualTo(6);
        String block = faultBlock(run.out(), "LOGIC-ERROR");
        assertThat(block).startsWith("LOGIC-ERROR in logic acme-throwing: acceptsAck(E1:PENDING[p2/t2/")
                .contains("threw java.lang.IllegalStateException: lease table out of sync for E1 (at com.acme.ThrowingRelay.acceptsAck(")
                .contains("  scenario:   stale-ack-after-expiry\n")
                .contains("  where:      ")
                .contains("  found by:   bfs\n")
                .contains("<== acceptsAck");
        assertThat(run.out()).doesNotContain("VACUOUS").doesNotContain(" OK ").contains("explore acme-throwing: 0 of 1 scenarios passed");
        assertThat(run.err()).doesNotContain("internal error").doesNotContain("\tat ");

        // the same fault, byte for byte, on two threads
        ChildCli.Run two = relaycheck("explore", "--logic", "com.acme.ThrowingRelay", "--classpath", jar.toString(),
                "-s", "stale-ack-after-expiry", "--threads", "2");
        assertThat(two.exit()).isEqualTo(6);
        assertThat(faultBlock(two.out(), "LOGIC-ERROR")).isEqualTo(block);

        // pasted into replay, the line reproduces it
        ChildCli.Run replay = relaycheck("replay", replayToken(run.out()), "--classpath", jar.toString());
        assertThat(replay.exit()).as(replay.toString()).isEqualTo(6);
        assertThat(replay.out()).startsWith("LOGIC-ERROR in logic acme-throwing: acceptsAck(")
                .contains("REPRODUCED LOGIC-ERROR: all ").contains("then the logic still throws");
    }

    @Test
    void underRandomWalksALogicErrorNamesTheStepItThrewAtAndIsNeverVacuous() {
        ChildCli.Run run = relaycheck("random", "--logic", "com.acme.ThrowingRelay", "--classpath", jar.toString(),
                "-s", "stale-ack-after-expiry", "--strategy", "random", "--runs", "400", "--seed", "3");
        assertThat(run.exit()).as(run.toString()).isEqualTo(6);
        String block = faultBlock(run.out(), "LOGIC-ERROR");
        assertThat(block).startsWith("LOGIC-ERROR in logic acme-throwing: acceptsAck(")
                .contains("  scenario:   stale-ack-after-expiry\n")
                .containsPattern("  where:      at step \\d+, Ack\\(p\\d,E1,t2\\), after \\d+ steps that ran\n")
                .containsPattern("  found by:   random walk #\\d+ \\(seed -?\\d+\\)\n");
        assertThat(run.out()).doesNotContain("VACUOUS");
        assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");

        ChildCli.Run replay = relaycheck("replay", replayToken(run.out()), "--classpath", jar.toString());
        assertThat(replay.exit()).as(replay.toString()).isEqualTo(6);
        assertThat(replay.out()).contains("REPRODUCED LOGIC-ERROR");
    }

    @Test
    void aLogicWithAStaticCounterIsNonDeterminismOnExploreAndOnRandom() {
        for (String[] command : new String[][] {
                {"explore", "-s", "stale-ack-after-expiry"},
                {"random", "-s", "stale-ack-after-expiry", "--runs", "400"}}) {
            ChildCli.Run run = relaycheck(concat(command, "--logic", "com.acme.CountingRelay", "--classpath", jar.toString()));
            assertThat(run.exit()).as(run.toString()).isEqualTo(7);
            assertThat(run.out()).containsPattern("\nNON-DETERMINISM in logic acme-counting: acceptsAck\\(E1:PENDING\\[p\\d/t\\d+/exp\\d+\\], "
                    + "t\\d+, p\\d, now=\\d+\\) answered (true, then false|false, then true)\n");
            assertThat(run.out()).doesNotContain("VACUOUS").doesNotContain(" OK ");
            assertThat(run.err()).doesNotContain("\tat ");
        }
    }

    @Test
    void aLogicUsingAnUnseededRandomIsNonDeterminismOnExploreAndOnRandom() {
        for (String[] command : new String[][] {
                {"explore", "-s", "event-61-lost-ack"},
                {"random", "-s", "event-61-lost-ack", "--runs", "400"}}) {
            ChildCli.Run run = relaycheck(concat(command, "--logic", "com.acme.CoinRelay", "--classpath", jar.toString()));
            assertThat(run.exit()).as(run.toString()).isEqualTo(7);
            assertThat(run.out()).containsPattern("\nNON-DETERMINISM in logic acme-coin: acceptsAck\\(EVENT-61:PENDING\\[p\\d/t\\d+/exp\\d+\\], "
                    + "t\\d+, p\\d, now=\\d+\\) answered (true, then false|false, then true)\n");
        }
    }

    @Test
    void aCorrectLogicUsingTheNewContextPassesEveryReferenceScenarioWithNeitherVerdict() {
        ChildCli.Run explore = relaycheck("explore", "--logic", "com.acme.FencedRelay", "--classpath", jar.toString());
        assertThat(explore.exit()).as(explore.toString()).isZero();
        int scenarios = dev.relaycheck.model.ReferenceScenarios.defaults().size(); // with the lease, settle and timing scenarios
        assertThat(explore.out()).contains("explore acme-fenced: " + scenarios + " of " + scenarios + " scenarios passed")
                .doesNotContain("LOGIC-ERROR").doesNotContain("NON-DETERMINISM");
        ChildCli.Run random = relaycheck("random", "--logic", "com.acme.FencedRelay", "--classpath", jar.toString(),
                "--runs", "300");
        assertThat(random.exit()).as(random.toString()).isZero();
        assertThat(random.out()).doesNotContain("LOGIC-ERROR").doesNotContain("NON-DETERMINISM");
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = new String[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
