package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.harness.HarnessJvm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code check --logic CLASS} and {@code check --store CLASS}, run as a user runs them: the real CLI in a child JVM,
 * the user's classes compiled here into a jar outside the project, and the jcstress and Lincheck phases of
 * {@code check} racing them (one harness, a few Lincheck scenarios). The user's classes are broken where the
 * shipped ones are not, so a phase that quietly ran the shipped logic or store would pass and fail these tests.
 *
 * <p>The harness phases need the harness modules built ({@code stress-tests/target/jcstress.jar},
 * {@code lincheck-tests/target/classpath.txt}); the reactor builds them before this module. Where they are missing
 * (a {@code -pl checker} build) the tests are skipped with the reason, and fail under {@code CI=true}.
 */
class CheckUserHarnessTest {
    private static final Path HOME = Path.of("").toAbsolutePath().getParent();
    /** The hazard scenarios (a double claim among them) run first in every check; one random one after. */
    private static final List<String> SMALL_LINCHECK = List.of("-Dlincheck.iterations=1", "-Dlincheck.invocations=20",
            "-Dlincheck.stress.iterations=1", "-Dlincheck.stress.invocations=20", "-Dlincheck.protocol.invocations=50");

    /** A logic that claims a row whatever its lease: two live leases on one row (SINGLE_LIVE_LEASE). */
    private static final String GREEDY_LOGIC = """
            package com.acme;
            import dev.relaycheck.model.*;
            import java.util.List;
            public final class GreedyRelay extends CorrectRelayLogic {
                @Override public String id() { return "acme-greedy"; }
                @Override public String description() { return "claims pending rows without looking at the lease"; }
                @Override public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) { return row.isPending(); }
            }
            """;
    /** The user's store: its claim reads the claimable rows, then writes the leases without a re-check. */
    private static final String RACY_STORE = """
            package com.acme;
            import dev.relaycheck.model.*;
            import dev.relaycheck.model.store.*;
            import java.util.*;
            public final class RacyStore extends CheckThenActClaimStore {
                public RacyStore(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks) {
                    super(logic, events, stock, leaseTicks);
                }
            }
            """;
    /** A store in front of something that cannot show its state (a remote cache, a DAO): no snapshot. */
    private static final String OPAQUE_STORE = """
            package com.acme;
            import dev.relaycheck.model.*;
            import dev.relaycheck.model.store.*;
            import java.util.*;
            public class OpaqueStore implements RelayStore {
                private final RelayStore inner;
                public OpaqueStore(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks) {
                    this(new ConcurrentRelayStore(logic, events, stock, leaseTicks));
                }
                protected OpaqueStore(RelayStore inner) { this.inner = inner; }
                @Override public List<Held> claim(String poller, int batch) { return inner.claim(poller, batch); }
                @Override public Delivery consume(String eventId, long token) { return inner.consume(eventId, token); }
                @Override public boolean ack(String eventId, long token) { return inner.ack(eventId, token); }
                @Override public boolean release(String eventId, long token) { return inner.release(eventId, token); }
                @Override public int tick() { return inner.tick(); }
                @Override public Optional<RelayState> snapshot() { return Optional.empty(); }
            }
            """;
    /** The same opaque store over a check-then-act claim: only its answers can show the double claim. */
    private static final String OPAQUE_RACY_STORE = """
            package com.acme;
            import dev.relaycheck.model.*;
            import dev.relaycheck.model.store.*;
            import java.util.*;
            public final class OpaqueRacyStore extends OpaqueStore {
                public OpaqueRacyStore(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks) {
                    super(new CheckThenActClaimStore(logic, events, stock, leaseTicks));
                }
            }
            """;

    @TempDir
    static Path dir;
    private static Path jar;

    @BeforeAll
    static void harnessesBuiltAndJar() {
        boolean built = Files.isRegularFile(HarnessJvm.jcstressJar(HOME)) && Files.isRegularFile(HarnessJvm.lincheckClasspathFile(HOME));
        String why = "the harness modules are not built (" + HarnessJvm.jcstressJar(HOME) + ", "
                + HarnessJvm.lincheckClasspathFile(HOME) + "): run 'mvn -B -DskipTests install' or the whole reactor";
        if (!built && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true but " + why);
        }
        Assumptions.assumeTrue(built, why);
        jar = ChildCli.compileJar(dir, "acme", Map.of("com.acme.GreedyRelay", GREEDY_LOGIC, "com.acme.RacyStore", RACY_STORE,
                "com.acme.OpaqueStore", OPAQUE_STORE, "com.acme.OpaqueRacyStore", OPAQUE_RACY_STORE));
    }

    @Test
    void checkRacesTheUsersLogicInJcstressAndLincheck() throws IOException {
        Checked c = check("logic", "jcstress,lincheck", "--logic", "com.acme.GreedyRelay");
        assertThat(c.run.exit()).as(c.run.toString()).isEqualTo(ExitCodes.VIOLATION);
        // the shipped correct logic passes these harnesses: a failure of acme-greedy is the user's class running
        assertThat(c.jcstressTsv).contains("Lease_01_DoubleClaim\tacme-greedy\t").contains("\tFAILED\t")
                .contains("(SINGLE_LIVE_LEASE)").contains("ran logic com.acme.GreedyRelay from " + jar)
                .doesNotContain("\tcorrect\t");
        assertThat(c.lincheckTsv).contains("linearizability-model-checking\tacme-greedy\t")
                .doesNotContain("\tcorrect\t");
        assertThat(c.lincheckTsv.lines().filter(l -> l.contains("\tacme-greedy\t") && l.contains("\tFAILED\t"))).isNotEmpty();
        assertThat(c.run.out()).contains("ran logic com.acme.GreedyRelay from " + jar + " in the shipped store");
        assertThat(c.json).contains("\"acme-greedy\"");
    }

    @Test
    void aBrokenUserStoreIsCaughtNamingTheInvariant() throws IOException {
        // jcstress only: the Lincheck phase runs a user's store as it runs a logic (the opaque stores below take it)
        Checked c = check("store", "jcstress", "--store", "com.acme.RacyStore");
        assertThat(c.run.exit()).as(c.run.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(c.jcstressTsv).contains("Lease_01_DoubleClaim\tstore:RacyStore\t").contains("\tFAILED\t")
                .contains("(SINGLE_LIVE_LEASE)").contains("ran store com.acme.RacyStore from " + jar);
        assertThat(c.run.out()).containsPattern("jcstress +FAIL");
        assertThat(c.json).contains("store:RacyStore").contains("SINGLE_LIVE_LEASE");
    }

    @Test
    void aStoreWithoutSnapshotGetsTheOutcomeOnlyChecksAndTheReportSaysSo() throws IOException {
        Checked c = check("opaque", "jcstress,lincheck", "--store", "com.acme.OpaqueStore");
        // the model, not selected, neither runs nor is judged: both harness phases pass, so the run passes
        assertThat(c.run.out()).as(c.run.toString()).containsPattern("jcstress +PASS").containsPattern("lincheck +PASS")
                .containsPattern("(?m)^model +SKIPPED +not selected$");
        assertThat(c.run.exit()).as(c.run.toString()).isZero();
        String note = "store:OpaqueStore produces no snapshot: it got the outcome-only checks";
        assertThat(c.run.out()).contains(note);
        assertThat(c.summaryMd).contains(note);
        assertThat(c.html).contains(note);
        // jcstress: only the harness whose outcome the grants fill in; Lincheck: linearizability over the answers
        assertThat(c.jcstressTsv).contains("Lease_01_DoubleClaim\tstore:OpaqueStore\t").doesNotContain("FAILED");
        assertThat(c.lincheckTsv).contains("linearizability-model-checking\tstore:OpaqueStore\t")
                .doesNotContain("relay-protocol").doesNotContain("FAILED");
        assertThat(c.lincheckLog).contains("outcome-only").contains("relay-protocol");

        // its negative control: the same store over a check-then-act claim is caught from its answers alone
        Checked racy = check("opaque-racy", "jcstress,lincheck", "--store", "com.acme.OpaqueRacyStore");
        assertThat(racy.run.exit()).as(racy.run.toString()).isEqualTo(ExitCodes.VIOLATION);
        assertThat(racy.jcstressTsv).contains("Lease_01_DoubleClaim\tstore:OpaqueRacyStore\t").contains("\tFAILED\t")
                .contains("(SINGLE_LIVE_LEASE)");
        assertThat(racy.lincheckTsv.lines().filter(l -> l.contains("\tstore:OpaqueRacyStore\t") && l.contains("\tFAILED\t")))
                .isNotEmpty();
    }

    private record Checked(ChildCli.Run run, String jcstressTsv, String lincheckTsv, String lincheckLog, String summaryMd,
                           String json, String html) {
    }

    /**
     * {@code check} on the user's class from the folder that holds the jar, the paths as a person types them: only
     * the harness phases, one jcstress harness, a small Lincheck budget.
     */
    private static Checked check(String name, String checkers, String... userArgs) throws IOException {
        Path results = dir.resolve("results-" + name);
        List<String> args = new ArrayList<>(List.of("check", "--only", checkers, "--budget", "quick",
                "-s", "double-claim", "--jcstress-tests", "Lease_01", "--classpath", dir.relativize(jar).toString(),
                "--results", "results-" + name));
        args.addAll(List.of(userArgs));
        args.addAll(SMALL_LINCHECK);
        ChildCli.Run run = ChildCli.run(dir, List.of("-Drelaycheck.home=" + HOME), args.toArray(String[]::new));
        return new Checked(run, read(results.resolve("jcstress/summary.tsv")), read(results.resolve("lincheck/summary.tsv")),
                read(results.resolve("logs/lincheck.log")), read(results.resolve("summary.md")), read(results.resolve("summary.json")),
                read(results.resolve("index.html")));
    }

    private static String read(Path file) throws IOException {
        return Files.isRegularFile(file) ? Files.readString(file) : "(no " + file + ")";
    }
}
