package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.harness.HarnessJvm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code relaycheck lincheck --logic CLASS} on logics written as users write them, compiled here into a jar outside the
 * project, run through the real CLI in a child JVM: linearizability compares what a logic promises, not the model's
 * token numbers, and a failure names the invariant its answers show broken, or none.
 */
class LincheckUserLogicTest {
    private static final Path HOME = Path.of("").toAbsolutePath().getParent();
    private static final List<String> SMALL = List.of("-Dlincheck.iterations=3", "-Dlincheck.invocations=100",
            "-Dlincheck.stress.iterations=2", "-Dlincheck.stress.invocations=100");

    /** Fences with a sequence that has gaps: every token 7 above the last, still strictly increasing. */
    private static final String PLUS_SEVEN = """
            package com.acme;
            import dev.relaycheck.model.*;
            public class PlusSevenRelay extends CorrectRelayLogic {
                @Override public String id() { return "acme-plus-seven"; }
                @Override public String description() { return "tokens from a sequence that steps by 7"; }
                @Override public long issueToken(OutboxRow row, long lastIssued) { return lastIssued + 7; }
            }
            """;
    /** Its broken copy: a re-claim keeps the row's old token, so the old owner's ack still matches. */
    private static final String KEEPS_TOKEN = """
            package com.acme;
            import dev.relaycheck.model.*;
            public final class KeepsTokenRelay extends PlusSevenRelay {
                @Override public String id() { return "acme-keeps-token"; }
                @Override public long issueToken(OutboxRow row, long lastIssued) {
                    return row.hasLease() ? row.lease().token() : lastIssued + 7;
                }
            }
            """;
    /** Claims any pending row whose lease is gone or expired: no head-of-aggregate rule. */
    private static final String NO_HEAD = """
            package com.acme;
            import dev.relaycheck.model.*;
            import java.util.List;
            public final class AnyPendingRelay extends CorrectRelayLogic {
                @Override public String id() { return "acme-any-pending"; }
                @Override public String description() { return "claims in sequence order, without the head-of-aggregate rule"; }
                @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
                    return row.isPending() && (row.lease() == null || row.lease().expiredAt(now));
                }
            }
            """;

    @TempDir
    static Path dir;
    private static Path jar;

    @BeforeAll
    static void harnessBuiltAndJar() {
        boolean built = Files.isRegularFile(HarnessJvm.lincheckClasspathFile(HOME));
        String why = "the Lincheck module is not built (" + HarnessJvm.lincheckClasspathFile(HOME) + "): run the whole reactor";
        if (!built && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true but " + why);
        }
        Assumptions.assumeTrue(built, why);
        jar = ChildCli.compileJar(dir, "acme", Map.of("com.acme.PlusSevenRelay", PLUS_SEVEN, "com.acme.KeepsTokenRelay", KEEPS_TOKEN,
                "com.acme.AnyPendingRelay", NO_HEAD));
    }

    @Test
    void tokensFromASequenceWithGapsAreLinearizableUnderModelCheckingAndStress() {
        ChildCli.Run r = lincheck("com.acme.PlusSevenRelay", "linearizability-model-checking,linearizability-stress");
        // a time-based hang report ends INCONCLUSIVE (exit 4), never FAILED
        assertThat(r.exit()).as(r.toString()).isIn(0, 4);
        assertThat(r.out()).containsPattern("(?m)^PASS +linearizability-model-checking/acme-plus-seven ")
                .doesNotContain("FAILED").doesNotContain("non-linearizable");
        assertThat(r.out()).containsPattern("(?m)^(PASS|INCONCLUSIVE) +linearizability-stress/acme-plus-seven ");
    }

    @Test
    void aReclaimThatKeepsTheTokenIsStillCaughtByName() {
        ChildCli.Run r = lincheck("com.acme.KeepsTokenRelay", "linearizability-model-checking");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.VIOLATION);
        String line = failed(r, "linearizability-model-checking/acme-keeps-token");
        assertThat(line).contains("non-linearizable against the correct model (STALE_ACK_REJECTED: ");
    }

    @Test
    void anOrderDifferenceOnTwoRowsIsNamedAggregateOrderNotADoubleClaim() {
        ChildCli.Run r = lincheck("com.acme.AnyPendingRelay", "linearizability-model-checking");
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.VIOLATION);
        String line = failed(r, "linearizability-model-checking/acme-any-pending");
        assertThat(line).contains("non-linearizable against the correct model (AGGREGATE_ORDER: claim(")
                .contains(" was granted E2 while E1, ahead of it in SKU-1, was never acknowledged in the run")
                .doesNotContain("SINGLE_LIVE_LEASE").doesNotContain("hazard double-claim");
        // the sentence is true of the results it is about: a claim in them got E2, and no ack of E1 was accepted
        String results = line.replaceFirst(".* in scenario [a-z0-9-]+: ", "");
        assertThat(results).as(line).containsPattern("claim\\(\\d\\): \\[E2/t\\d+").doesNotContain("ack(1, E1): ACKED")
                .doesNotContain("ack(2, E1): ACKED");
    }

    private static String failed(ChildCli.Run r, String name) {
        return r.out().lines().filter(l -> l.startsWith("FAILED") && l.contains(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no FAILED line for " + name + "\n" + r));
    }

    private static ChildCli.Run lincheck(String logic, String only) {
        List<String> args = new ArrayList<>(List.of("lincheck", "--logic", logic, "--classpath", jar.toString(), "--only", only,
                "--out", dir.resolve("out-" + logic).toString()));
        args.addAll(SMALL);
        return ChildCli.run(dir, List.of("-Drelaycheck.home=" + HOME), args.toArray(String[]::new));
    }
}
