package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's logic compiled into a jar outside the project goes through explore, random, check and replay as a
 * person runs them: the real CLI in a child JVM, from the folder that holds the jar, with the paths as typed.
 */
class UserLogicEndToEndTest {
    private static final String CLASS = "com.acme.OwnerFencedRelay";
    private static final String BUGGY = """
            package com.acme;
            import dev.relaycheck.model.*;
            public final class OwnerFencedRelay extends CorrectRelayLogic {
                @Override public String id() { return "acme-owner-fenced"; }
                @Override public String description() { return "acks any leased row, whoever holds it"; }
                @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending() && row.hasLease(); }
            }
            """;
    /** The same class after the user fixed it: the ack is fenced by the token again. */
    private static final String FIXED = """
            package com.acme;
            import dev.relaycheck.model.*;
            public final class OwnerFencedRelay extends CorrectRelayLogic {
                @Override public String id() { return "acme-owner-fenced"; }
                @Override public String description() { return "acks only with the current token"; }
            }
            """;

    @TempDir
    Path dir;

    /** The command of a printed "./relaycheck replay ..." line, split as a shell splits it (the test paths need no quotes). */
    private static String[] pasted(String output) {
        Matcher m = Pattern.compile("(?m)\\./relaycheck (replay .*)$").matcher(output);
        assertThat(m.find()).as("a replay line in:\n%s", output).isTrue();
        return m.group(1).trim().split(" ");
    }

    @Test
    void aJarredLogicGoesThroughExploreRandomCheckAndReplayWithTheLineItWasGiven() throws Exception {
        ChildCli.compileJar(dir, "acme", Map.of(CLASS, BUGGY));

        ChildCli.Run explored = ChildCli.run(dir, "explore", "--logic", CLASS, "--classpath", "acme.jar",
                "-s", "stale-ack-after-expiry");
        assertThat(explored.exit()).as(explored.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(explored.out()).contains("VIOLATION STALE_ACK_REJECTED in scenario stale-ack-after-expiry with logic acme-owner-fenced")
                .contains("--classpath acme.jar");
        String[] replayLine = pasted(explored.out());
        assertThat(replayLine).endsWith("--classpath", "acme.jar");

        ChildCli.Run replayed = ChildCli.run(dir, replayLine);
        assertThat(replayed.exit()).as(replayed.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(replayed.out()).contains("REPRODUCED STALE_ACK_REJECTED");

        ChildCli.Run walked = ChildCli.run(dir, "random", "--logic", CLASS, "--classpath", "acme.jar",
                "-s", "stale-ack-after-expiry", "--runs", "3000", "--threads", "2");
        assertThat(walked.exit()).as(walked.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(ChildCli.run(dir, pasted(walked.out())).out()).contains("REPRODUCED STALE_ACK_REJECTED");

        ChildCli.Run checked = ChildCli.run(dir, "check", "--only", "model", "--logic", CLASS, "--classpath", "acme.jar",
                "-s", "stale-ack-after-expiry", "--results", "out");
        assertThat(checked.exit()).as(checked.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(checked.out()).contains("acme-owner-fenced on stale-ack-after-expiry: VIOLATION STALE_ACK_REJECTED");
        String json = Files.readString(dir.resolve("out/summary.json"));
        assertThat(json).contains("\"schema\": \"relaycheck-summary/2\"").contains("\"outcome\": \"VIOLATION\"")
                .contains("\"exit\": 1").contains("--classpath acme.jar");
        assertThat(Files.readString(dir.resolve("out/summary.md"))).contains("Full report: `out/index.html`")
                .doesNotContain("results/index.html");

        // the user fixes the class and rebuilds the same jar: the same line now says the race is gone
        Path fixed = ChildCli.compileJar(Files.createDirectories(dir.resolve("fixed")), "acme", Map.of(CLASS, FIXED));
        Files.copy(fixed, dir.resolve("acme.jar"), StandardCopyOption.REPLACE_EXISTING);
        ChildCli.Run gone = ChildCli.run(dir, replayLine);
        assertThat(gone.exit()).as(gone.toString()).isEqualTo(ExitCodes.CLEAN);
        assertThat(gone.out()).startsWith("NOT REPRODUCED: step 6: expected Ack(p1,E1,t1) => ACKED E1/t1");
    }

    /** A scenario the user wrote by hand: three pollers, a longer lease, two events of one aggregate. */
    private static final String MY_SCENARIO = """
            # our checkout flow: three relay instances, a 3-tick lease
            name checkout
            pollers a b c
            stock SKU-29 5
            event EVENT-61 SKU-29 2
            event EVENT-62 SKU-29 1
            lease 3
            ticks lease+1
            deliver-fails 1
            requires STALE_ACK LEASE_RECLAIMED
            """;

    @Test
    void aJarredLogicOnTheUsersOwnScenarioFileGoesThroughEveryCommandAndItsDeterminismIsChecked() throws Exception {
        ChildCli.compileJar(dir, "acme", Map.of(CLASS, BUGGY, "com.acme.Flaky", """
                package com.acme;
                import dev.relaycheck.model.*;
                /** Answers acks from a counter it keeps between calls: not a function of its arguments. */
                public final class Flaky extends CorrectRelayLogic {
                    private static int asked;
                    @Override public String id() { return "acme-flaky"; }
                    @Override public boolean acceptsAck(OutboxRow row, long token) { return super.acceptsAck(row, token) && asked++ % 7 != 3; }
                }
                """));
        Files.writeString(dir.resolve("checkout.scenario"), MY_SCENARIO);
        String[] logic = {"--logic", CLASS, "--classpath", "acme.jar", "-s", "checkout.scenario"};

        ChildCli.Run explored = ChildCli.run(dir, with(new String[] {"explore"}, logic));
        assertThat(explored.exit()).as(explored.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(explored.out()).contains("VIOLATION STALE_ACK_REJECTED in scenario checkout with logic acme-owner-fenced");
        ChildCli.Run replayed = ChildCli.run(dir, pasted(explored.out()));
        assertThat(replayed.exit()).as(replayed.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(replayed.out()).contains("REPRODUCED STALE_ACK_REJECTED");

        ChildCli.Run walked = ChildCli.run(dir, with(new String[] {"random", "--runs", "3000", "--seed", "7"}, logic));
        assertThat(walked.exit()).as(walked.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(ChildCli.run(dir, pasted(walked.out())).out()).contains("REPRODUCED STALE_ACK_REJECTED");

        ChildCli.Run checked = ChildCli.run(dir, with(new String[] {"check", "--only", "model", "--results", "out"}, logic));
        assertThat(checked.exit()).as(checked.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(checked.out()).contains("acme-owner-fenced on checkout: VIOLATION STALE_ACK_REJECTED");
        // the line the report keeps replays the user's scenario too: the record carries it, not its file
        Files.delete(dir.resolve("checkout.scenario"));
        ChildCli.Run fromReport = ChildCli.run(dir, pasted(Files.readString(dir.resolve("out/summary.md"))));
        assertThat(fromReport.exit()).as(fromReport.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(fromReport.out()).contains("REPRODUCED STALE_ACK_REJECTED");

        Files.writeString(dir.resolve("checkout.scenario"), MY_SCENARIO);
        String[] flaky = {"--logic", "com.acme.Flaky", "--classpath", "acme.jar", "-s", "checkout.scenario"};
        for (String[] command : new String[][] {with(new String[] {"explore"}, flaky),
                with(new String[] {"check", "--only", "model", "--results", "flaky"}, flaky)}) {
            ChildCli.Run r = ChildCli.run(dir, command);
            assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.NON_DETERMINISM);
            assertThat(r.out() + r.err()).contains("NON-DETERMINISM in logic acme-flaky").contains("acceptsAck(");
        }
    }

    @Test
    void aUsersLogicCannotPassForAShippedOneOrGoNameless() {
        for (var idAndWhy : Map.of("\"correct\"", "which is the id of a shipped logic", "null", "returns null from id()",
                "\" \"", "returns a blank string from id()", "\"my relay\"", "an id is letters, digits").entrySet()) {
            Path here = dir.resolve("case" + Math.abs(idAndWhy.getKey().hashCode()));
            ChildCli.compileJar(here, "impostor", Map.of("com.acme.Impostor", """
                    package com.acme;
                    import dev.relaycheck.model.*;
                    public final class Impostor extends CorrectRelayLogic {
                        @Override public String id() { return ID; }
                        @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending(); }
                    }
                    """.replace("ID", idAndWhy.getKey())));
            String[] command = idAndWhy.getKey().equals("\"correct\"")
                    ? new String[] {"check", "--only", "model", "--logic", "com.acme.Impostor", "--classpath", "impostor.jar"}
                    : new String[] {"explore", "--logic", "com.acme.Impostor", "--classpath", "impostor.jar"};
            {
                ChildCli.Run r = ChildCli.run(here, command);
                assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
                assertThat(r.err().trim()).startsWith("relaycheck: logic class com.acme.Impostor").contains(idAndWhy.getValue())
                        .doesNotContain("\n");
                assertThat(r.out()).isEmpty();
            }
        }
    }

    @Test
    void aRecordOfAUsersLogicNeedsItsClassAndSaysSo() {
        ChildCli.compileJar(dir, "acme", Map.of(CLASS, BUGGY));
        ChildCli.Run explored = ChildCli.run(dir, "explore", "--logic", CLASS, "--classpath", "acme.jar",
                "-s", "stale-ack-after-expiry");
        String[] line = pasted(explored.out());
        ChildCli.Run withoutClasspath = ChildCli.run(dir, Arrays.copyOf(line, line.length - 2));
        assertThat(withoutClasspath.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(withoutClasspath.err().trim()).isEqualTo("relaycheck: this record is for logic 'acme-owner-fenced' ("
                + CLASS + "): logic class " + CLASS + " not found (no --classpath given)");
    }

    @Test
    void theExitCodeIsTheVerdictOfHighestPrecedenceOverTheScenarios() {
        // never re-claims a leased row: nothing goes wrong on stale-ack-after-expiry, but nothing stale happens either
        ChildCli.compileJar(dir, "noreclaim", Map.of("com.acme.NoReclaim", """
                package com.acme;
                import dev.relaycheck.model.*;
                public final class NoReclaim extends CorrectRelayLogic {
                    @Override public String id() { return "acme-no-reclaim"; }
                    @Override public boolean isClaimable(OutboxRow row, java.util.List<OutboxRow> outbox, int now) {
                        return super.isClaimable(row, outbox, now) && !row.hasLease();
                    }
                }
                """));
        String[] logic = {"explore", "--logic", "com.acme.NoReclaim", "--classpath", "noreclaim.jar"};
        ChildCli.Run vacuous = ChildCli.run(dir, with(logic, "-s", "stale-ack-after-expiry"));
        assertThat(vacuous.exit()).as(vacuous.toString()).isEqualTo(ExitCodes.VACUOUS);
        assertThat(vacuous.out()).contains("VACUOUS: never reached [STALE_ACK, LEASE_RECLAIMED]").contains("verdict VACUOUS");

        // double-claim has no fault that could leave a row stuck, so its bounded search can only stop at the
        // bound (on mixed a crash strands a batch, and a healing failure found before a bound is a violation)
        ChildCli.Run incomplete = ChildCli.run(dir, with(logic, "-s", "stale-ack-after-expiry", "-s", "double-claim",
                "--max-states", "150"));
        assertThat(incomplete.exit()).as(incomplete.toString()).isEqualTo(ExitCodes.INCOMPLETE);
        assertThat(incomplete.out()).contains("verdict INCOMPLETE");

        // the lease is never taken back from a poller that lost its ack: the event is stuck
        ChildCli.Run violation = ChildCli.run(dir, with(logic, "-s", "stale-ack-after-expiry", "-s", "event-61-lost-ack",
                "-s", "mixed", "--max-states", "200"));
        assertThat(violation.exit()).as(violation.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(violation.out()).contains("VIOLATION EVENTUAL_DELIVERY in scenario event-61-lost-ack").contains("verdict VIOLATION");
    }

    private static String[] with(String[] head, String... tail) {
        String[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
