package com.example.modulith;

import dev.relaycheck.checker.cli.ChildCli;
import dev.relaycheck.model.command.ShellWords;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.relaycheck.checker.cli.ChildCli.runAsUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order service on Spring Modulith's JDBC event publication registry, checked by its own code with its cleanup
 * job, through the relaycheck CLI in a child JVM: on 2.0.5 the purge deletes a publication in progress and its event
 * is lost (the finding names the cleanup's step, and its replay line reproduces it); 2.1.0 passes the same check, and
 * {@code relaycheck diff} of the two shows that. The seeded check runs on H2 ({@code -Dmodulith.db=h2,postgres} adds
 * PostgreSQL, {@code -Dmodulith.runs=N} more runs); on PostgreSQL the same schedule -- the service dies while its
 * listener runs -- loses the event on 2.0.5 and not on 2.1.0. A resubmission that runs beside the listener it
 * replaces is reported as not promised.
 */
class ModulithCodeTest {
    static final String RELAY = "com.example.modulith.relaycheck.ModulithCode";
    static final String LOST = "E\\d's row was deleted at step \\d+ by cleanup while PENDING\\[v\\d until t=\\d+s\\], "
            + "and its effect was never applied: the event is lost";
    /** Seeded runs a database: run 6 is the first on H2 whose listener runs again after its effect (a pass requires one). */
    static final int RUNS = Integer.getInteger("modulith.runs", 7);
    static final String DBS = System.getProperty("modulith.db", "h2");
    /** The service writes E1, its listener marks it PROCESSING, and the process dies before the listener's effect. */
    static final String LISTENER_DIES = "producer producer producer producer producer producer crash:producer";
    /**
     * The listener marks E1 PROCESSING; 31 s later relay-1's monitor marks it failed and resubmits it (a new
     * completion attempt), and then the first listener, still running, applies its effect and completes E1.
     */
    static final String RESUBMITTED_BESIDE_THE_LISTENER = "producer producer producer producer producer producer tick tick "
            + "relay-1 ".repeat(15) + "producer producer producer producer producer";

    /** The team's classes on one release's class path, as the team passes them with --classpath. */
    static String classpath(String release) throws IOException {
        return Path.of("target", "classes").toAbsolutePath() + File.pathSeparator + String.join(File.pathSeparator, jars(release));
    }

    static List<String> jars(String release) throws IOException {
        return List.of(Files.readString(Path.of("spring-modulith-" + release, "target", "modulith.classpath"), StandardCharsets.UTF_8)
                .strip().split(File.pathSeparator));
    }

    /**
     * relaycheck with Spring and Modulith on --classpath only, as a team runs it outside this build: every library of
     * either release left off its own class path, in whichever version this module compiled against, but SLF4J's API,
     * which relaycheck's PostgreSQL server logs through.
     */
    static ChildCli.Run relaycheck(String... args) throws IOException {
        Set<String> libraries = new HashSet<>();
        for (String release : List.of("2.0.5", "2.1.0")) {
            jars(release).forEach(j -> libraries.add(artifact(j)));
        }
        libraries.remove("slf4j-api");
        List<String> off = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(j -> libraries.contains(artifact(j))).toList();
        return runAsUser(off, args);
    }

    /** A jar's artifact name: its file name without the version ({@code spring-context-7.0.8.jar}: spring-context). */
    static String artifact(String jar) {
        return Path.of(jar).getFileName().toString().replaceFirst("-\\d[^-]*(-[A-Za-z]+)?\\.jar$", "");
    }

    static ChildCli.Run check(String release) throws IOException {
        return relaycheck("check", "--relay", RELAY, "--classpath", classpath(release), "--db", DBS, "--budget", "quick",
                "--code-runs", String.valueOf(RUNS), "--code-shrink", "4", "--results", "target/check-" + release);
    }

    static ChildCli.Run replay(String release, String db, String schedule) throws IOException {
        return relaycheck("code", "replay", "--relay", RELAY, "--classpath", classpath(release), "--db", db, "--strategy", "schedule",
                "--schedule", schedule);
    }

    @Test
    void theCleanupOf205LosesAnEventInFlightAnd210PassesTheSameCheck() throws IOException {
        ChildCli.Run broken = check("2.0.5");
        assertThat(broken.exit()).as(broken.toString()).isEqualTo(1);
        for (String db : DBS.split(",")) {
            assertThat(broken.out()).containsPattern((db.equals("h2") ? "code" : "code-" + db) + " NO_LOST_EVENT on " + Pattern.quote(RELAY)
                    + ": FAILED " + LOST + "; replay: ");
        }
        String line = broken.out().lines().filter(l -> l.contains("code NO_LOST_EVENT")).findFirst().orElseThrow();
        ChildCli.Run again = relaycheck(ShellWords.split(line.substring(line.indexOf("replay: ./relaycheck ") + "replay: ./relaycheck ".length(),
                line.lastIndexOf("**"))).toArray(String[]::new));
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).containsPattern("REPRODUCED NO_LOST_EVENT at the end: " + LOST)
                .containsPattern("\\d+\\s+cleanup\\s+DELETE FROM EVENT_PUBLICATION WHERE COMPLETION_DATE IS NOT NULL OR STATUS = 'PROCESSING' -> \\d+ rows?")
                .containsPattern("\\d+\\s+cleanup\\s+COMMIT .*\\[.*-E\\d \\(was PENDING");

        ChildCli.Run fixed = check("2.1.0");
        assertThat(fixed.exit()).as(fixed.toString()).isZero();
        assertThat(fixed.out()).containsPattern("(?m)^code\\s+PASS ");

        ChildCli.Run diff = relaycheck("diff", "target/check-2.0.5", "target/check-2.1.0");
        assertThat(diff.exit()).as(diff.toString()).isZero();
        // on 2.0.5 the purge took every publication in progress before the monitor's retry, so no run reached one
        List<String> better = new java.util.ArrayList<>(List.of("  + verdict FAIL -> PASS"));
        for (String db : DBS.split(",")) {
            String column = db.equals("h2") ? "code" : "code-" + db;
            better.add("  + " + column + " NO_LOST_EVENT on " + RELAY + ": FAILED -> PASS");
            better.add("  + " + column + " reached on " + RELAY + ": INCONCLUSIVE -> PASS");
        }
        assertThat(diff.out()).contains("0 worse, " + better.size() + " better, 0 changed, 0 new counterexamples")
                .contains("  before: target/check-2.0.5 (relay " + RELAY + " by its own code, FAIL)");
        assertThat(diff.out().lines().filter(l -> l.startsWith("  + ")).map(l -> l.replaceFirst(" \\(was: .*", "")))
                .containsExactlyInAnyOrderElementsOf(better);
    }

    @Test
    void onPostgresTheServiceDyingWhileItsListenerRunsLosesTheEventOn205AndNotOn210() throws IOException {
        Assumptions.assumeTrue(ChildCli.postgresHere(), "PostgreSQL checks skipped: no server binaries on this machine");
        ChildCli.Run broken = replay("2.0.5", "postgres", LISTENER_DIES);
        assertThat(broken.exit()).as(broken.toString()).isEqualTo(1);
        assertThat(broken.out()).containsPattern("producer\\s+CRASH at deliver E1")
                .containsPattern("cleanup\\s+COMMIT\\s+\\[-E1 \\(was PENDING\\[v1 until t=30s\\]\\)")
                .containsPattern("REPRODUCED NO_LOST_EVENT at the end: E1's row was deleted at step \\d+ by cleanup while PENDING\\[v1 until t=30s\\], "
                        + "and its effect was never applied: the event is lost");
        ChildCli.Run fixed = replay("2.1.0", "postgres", LISTENER_DIES);
        assertThat(fixed.exit()).as(fixed.toString()).isZero();
        assertThat(fixed.out()).doesNotContainPattern("cleanup\\s+COMMIT .*-E1 ").containsPattern("relay-\\d\\s+deliver E1")
                .contains("NOT REPRODUCED: the run broke no invariant");
    }

    @Test
    void aResubmissionBesideTheListenerItReplacesIsNotPromised() throws IOException {
        ChildCli.Run r = replay("2.1.0", "h2", RESUBMITTED_BESIDE_THE_LISTENER);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).containsPattern("relay-1\\s+UPDATE EVENT_PUBLICATION SET STATUS = 'RESUBMITTED'")
                .containsPattern("NOT PROMISED STALE_ACK_REJECTED at step \\d+: producer changed E1 \\(PENDING\\[v2 until t=30s\\] -> DELIVERED\\) "
                        + "after relay-1 took its lease over at step \\d+: a worker whose lease was taken over must not change the row "
                        + "\\(the relay declares it does not promise this\\)")
                .contains("NOT REPRODUCED: the run broke no invariant");
    }
}
