package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Before/after as a person does it: {@code check --only model} on the correct logic twice, then on a user's
 * logic compiled here into a jar, then {@code relaycheck diff} between the results directories, each command the
 * real CLI in a child JVM.
 */
class DiffCliTest {
    /** Small scenarios on which the correct logic passes and every catalogue variant is caught. */
    private static final String[] SCENARIOS = {"-s", "event-61-lost-ack", "-s", "stale-ack-after-expiry", "-s", "aggregate-order",
            "-s", "producer-atomicity", "-s", "crash-restart",
            "-s", "lease-renewal", "-s", "clock-skew", "-s", "commit-visibility", // those variants need their own scenarios
            "-s", "outbox-cleanup"}; // and so does the cleanup's

    @TempDir
    static Path dir;
    static Path jar;

    @BeforeAll
    static void runs() {
        jar = ChildCli.compileJar(dir, "acme", Map.of(
                // never takes a row back from a poller whose lease expired: nothing stale can happen
                "com.acme.NoReclaim", """
                        package com.acme;
                        import dev.relaycheck.model.*;
                        public final class NoReclaim extends CorrectRelayLogic {
                            @Override public String id() { return "acme-no-reclaim"; }
                            @Override public String description() { return "never re-claims a leased row"; }
                            @Override public boolean isClaimable(OutboxRow row, java.util.List<OutboxRow> outbox, int now) {
                                return super.isClaimable(row, outbox, now) && !row.hasLease();
                            }
                        }
                        """,
                // acks any leased row, whoever holds it: checks the owner's existence, not the token
                "com.acme.OwnerFenced", """
                        package com.acme;
                        import dev.relaycheck.model.*;
                        public final class OwnerFenced extends CorrectRelayLogic {
                            @Override public String id() { return "acme-owner-fenced"; }
                            @Override public String description() { return "acks any leased row"; }
                            @Override public boolean acceptsAck(OutboxRow row, long token) { return row.isPending() && row.hasLease(); }
                        }
                        """));
        check("before", null);
        check("again", null);
    }

    private static ChildCli.Run check(String results, String logic, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("check", "--only", "model", "--results", results));
        args.addAll(java.util.List.of(SCENARIOS));
        if (logic != null) {
            args.addAll(java.util.List.of("--logic", logic, "--classpath", jar.toString()));
        }
        args.addAll(java.util.List.of(more));
        ChildCli.Run r = ChildCli.run(dir, args.toArray(String[]::new));
        assertThat(Files.isRegularFile(dir.resolve(results).resolve("summary.json"))).as("%s", r).isTrue();
        return r;
    }

    @Test
    void twoRunsOfTheSameLogicShowNoChangeAndTheirDeterministicPartsAreTheSameBytes() throws IOException {
        ChildCli.Run r = ChildCli.run(dir, "diff", "before", "again");
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.out()).startsWith("relaycheck diff: NO CHANGE: 0 worse, 0 better, 0 changed");
        assertThat(r.err()).isEmpty();
        assertThat(deterministic(dir.resolve("again"))).isEqualTo(deterministic(dir.resolve("before")));
    }

    @Test
    void aLogicThatNoLongerReachesAWitnessIsWorseAndSaysWhichOne() {
        // (a longer lease no longer does this: the scenarios' clocks follow the lease the logic grants)
        ChildCli.Run c = check("no-reclaim", "com.acme.NoReclaim", "--baseline", "before");
        assertThat(c.exit()).as("%s", c).isNotZero();
        ChildCli.Run r = ChildCli.run(dir, "diff", "before", "no-reclaim/summary.json");
        assertThat(r.exit()).as("%s", r).isEqualTo(1);
        assertThat(r.out()).startsWith("relaycheck diff: WORSE").contains("  before: before (logic correct, PASS)")
                .contains("- verdict PASS -> FAIL")
                .contains("- scenario stale-ack-after-expiry: OK -> VACUOUS: never reached [STALE_ACK, LEASE_RECLAIMED]")
                .contains("- scenario stale-ack-after-expiry: lost witness STALE_ACK (required)")
                .contains("- scenario stale-ack-after-expiry: lost witness LEASE_RECLAIMED (required)");
        // check --baseline says the same, first thing on the page and at the end of its output
        assertThat(c.out()).contains("== before/after (--baseline before)").contains("lost witness LEASE_RECLAIMED (required)");
    }

    @Test
    void aLogicThatBreaksAnInvariantIsNamedWithItsReplayLineAndTheReportOpensWithIt() throws IOException {
        check("owner-fenced", "com.acme.OwnerFenced", "--baseline", "before");
        ChildCli.Run r = ChildCli.run(dir, "diff", "before", "owner-fenced");
        assertThat(r.exit()).as("%s", r).isEqualTo(1);
        assertThat(r.out()).contains("- verdict PASS -> FAIL")
                .contains("- scenario stale-ack-after-expiry: OK -> VIOLATION STALE_ACK_REJECTED")
                .contains("NEW COUNTEREXAMPLES")
                .contains("acme-owner-fenced: STALE_ACK_REJECTED on stale-ack-after-expiry")
                .containsPattern("\n    \\./relaycheck replay rc1:\\S+ --classpath \\S+acme\\.jar\n")
                .doesNotContain("variant ");  // the catalogue's results did not change
        String page = Files.readString(dir.resolve("owner-fenced/index.html"), StandardCharsets.UTF_8);
        assertThat(page.indexOf("id=\"baseline\"")).as("the comparison comes before the verdict").isPositive()
                .isLessThan(page.indexOf("id=\"verdict\""));
        assertThat(page).contains("Before/after: WORSE").contains("VIOLATION STALE_ACK_REJECTED");
        assertThat(Files.readString(dir.resolve("owner-fenced/summary.md"), StandardCharsets.UTF_8))
                .startsWith("## Before/after: WORSE").contains("- **WORSE**: scenario stale-ack-after-expiry: OK -> VIOLATION");
    }

    @Test
    void aMissingOrForeignInputIsAUsageErrorOnOneLine() throws IOException {
        ChildCli.Run missing = ChildCli.run(dir, "diff", "before", "nowhere");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("relaycheck: no such file or directory: nowhere\n");
        Files.writeString(dir.resolve("other.json"), "{\"name\": \"not ours\"}");
        ChildCli.Run foreign = ChildCli.run(dir, "diff", "other.json", "before");
        assertThat(foreign.exit()).isEqualTo(2);
        assertThat(foreign.err()).startsWith("relaycheck: other.json is not a relaycheck summary.json").hasLineCount(1);
        ChildCli.Run baseline = ChildCli.run(dir, "check", "--only", "model", "-s", "event-61-lost-ack", "--baseline", "nowhere",
                "--results", "unused");
        assertThat(baseline.exit()).isEqualTo(2);
        assertThat(baseline.err()).isEqualTo("relaycheck: no such file or directory: nowhere\n");
        assertThat(dir.resolve("unused")).doesNotExist();
    }

    /** The "deterministic" object of a summary.json, as written. */
    private static String deterministic(Path results) throws IOException {
        String json = Files.readString(results.resolve("summary.json"), StandardCharsets.UTF_8);
        int from = json.indexOf("\n  \"deterministic\": ");
        int to = json.indexOf("\n  \"sampled\": ");
        assertThat(from).isPositive();
        assertThat(to).isGreaterThan(from);
        return json.substring(from, to);
    }
}
