package com.example.scheduler;

import dev.relaycheck.checker.cli.ChildCli;
import dev.relaycheck.model.command.ShellWords;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.relaycheck.checker.cli.ChildCli.runAsUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * db-scheduler 16.7.1's one-time task as an outbox, checked by its own code through the relaycheck CLI in a child JVM:
 * its version fence refuses stale completions, a dead execution is revived and run again once its heartbeat is 30 s
 * old, the handler's effect with its dedup key is applied once and without it twice; lock-and-fetch on PostgreSQL
 * (on H2 db-scheduler refuses it), and the library's own revival of dead executions refused for reading the JVM's
 * clock. On H2 and PostgreSQL.
 */
class SchedulerCodeTest {
    static final String PACKAGE = "com.example.scheduler.relaycheck.";
    /** The service writes E1; relay-1 picks it, runs the handler, whose effect commits, and dies before the delete. */
    static final String CRASH_AFTER_THE_EFFECT = "producer producer producer producer producer relay-1 relay-1 relay-1 relay-1 relay-1 relay-1 relay-1";

    /** Seeded runs a database; {@code -Dscheduler.runs=N} and {@code -Dscheduler.pgRuns=N} run more. */
    static final int RUNS = Integer.getInteger("scheduler.runs", 24);
    static final int PG_RUNS = Integer.getInteger("scheduler.pgRuns", 6);

    static List<String> jars() throws IOException {
        return List.of(Files.readString(Path.of("target", "scheduler.classpath"), StandardCharsets.UTF_8).strip().split(File.pathSeparator));
    }

    static String classpath() throws IOException {
        return Path.of("target", "classes").toAbsolutePath() + File.pathSeparator + String.join(File.pathSeparator, jars());
    }

    /** relaycheck with db-scheduler and Spring on --classpath only, as outside this build (SLF4J's API stays: relaycheck logs through it). */
    static ChildCli.Run relaycheck(String... args) throws IOException {
        List<String> off = new ArrayList<>(jars());
        off.removeIf(j -> Path.of(j).getFileName().toString().startsWith("slf4j-api"));
        return runAsUser(off, args);
    }

    static ChildCli.Run code(String relay, String db, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("code", "--relay", PACKAGE + relay, "--classpath", classpath(), "--db", db,
                "--runs", String.valueOf(db.equals("h2") ? RUNS : PG_RUNS), "--shrink", db.equals("h2") ? "40" : "4",
                "--out", "target/code-" + relay + "-" + db));
        args.addAll(List.of(more));
        return relaycheck(args.toArray(String[]::new));
    }

    static ChildCli.Run replay(String relay, String db, String schedule) throws IOException {
        return relaycheck("code", "replay", "--relay", PACKAGE + relay, "--classpath", classpath(), "--db", db, "--strategy", "schedule",
                "--schedule", schedule);
    }

    /** H2; PostgreSQL too with -Drelaycheck.long=true (the missing dedup key is caught on both by default). */
    static List<String> databases() {
        return Boolean.getBoolean("relaycheck.long") ? List.of("h2", "postgres") : List.of("h2");
    }

    static void assumeDatabase(String db) {
        if (db.equals("postgres")) {
            Assumptions.assumeTrue(ChildCli.postgresHere(), "PostgreSQL checks skipped: no server binaries on this machine");
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("databases")
    void theVersionFenceRefusesStaleCompletionsAndTheEffectWithItsDedupKeyPasses(String db) throws IOException {
        assumeDatabase(db);
        ChildCli.Run r = code("SchedulerCode", db);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("  PASSED\n")
                .containsPattern("a lease that ran out taken over by another instance \\([1-9]\\d* runs, required\\)")
                .containsPattern("a taken-over worker's statement about its row changing nothing \\([1-9]\\d* runs\\)");
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"h2", "postgres"})
    void anEffectWithoutItsDedupKeyIsAppliedTwiceAndTheReplayLineReproducesIt(String db) throws IOException {
        assumeDatabase(db);
        ChildCli.Run r = code(db.equals("h2") ? "EffectOutsideSchedulerCode" : "EffectOutsideSkipLockedSchedulerCode", db);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).containsPattern("FAILED EFFECT_AT_MOST_ONCE in run \\d+ \\(\\w+ seed -?\\d+(, its \\d+ scheduled steps shrunk to \\d+)?\\): "
                + "E\\d's effect was applied 2 times");
        String line = r.out().lines().filter(l -> l.startsWith("    replay: ")).findFirst().orElseThrow();
        ChildCli.Run again = relaycheck(ShellWords.split(line.substring(line.indexOf(" code replay ") + 1)).toArray(String[]::new));
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).containsPattern("REPRODUCED EFFECT_AT_MOST_ONCE at step \\d+: E\\d's effect was applied 2 times");
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("databases")
    void aCrashBetweenTheEffectAndItsCompletionRunsTheTaskAgainOnceItIsDead(String db) throws IOException {
        assumeDatabase(db);
        ChildCli.Run outside = replay("EffectOutsideSchedulerCode", db, CRASH_AFTER_THE_EFFECT + " crash:relay-1");
        assertThat(outside.exit()).as(outside.toString()).isEqualTo(1);
        assertThat(outside.out()).containsPattern("\\d+\\s+relay-1\\s+CRASH at delete from scheduled_tasks where task_name = \\? and task_instance = \\? and version = \\?")
                .containsPattern("REPRODUCED EFFECT_AT_MOST_ONCE at step \\d+: E1's effect was applied 2 times \\(first at step \\d+ by relay-1, again at step \\d+ by relay-\\d\\)");
        // the same crash with the effect and its dedup key in one transaction (one more point: its commit)
        ChildCli.Run inside = replay("SchedulerCode", db, CRASH_AFTER_THE_EFFECT + " relay-1 crash:relay-1");
        assertThat(inside.exit()).as(inside.toString()).isZero();
        assertThat(inside.out()).containsPattern("\\d+\\s+relay-1\\s+CRASH at delete from scheduled_tasks")
                .containsPattern("relay-\\d\\s+delete from scheduled_tasks .* -> 1 row\\s+\\[-E1 \\(was PENDING\\[v\\d until t=\\d+s\\]\\)\\]")
                .contains("NOT REPRODUCED");
    }

    @Test
    void lockAndFetchOnPostgresPasses() throws IOException {
        assumeDatabase("postgres");
        ChildCli.Run r = code("SkipLockedSchedulerCode", "postgres");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("  PASSED\n").containsPattern("a lease that ran out taken over by another instance \\([1-9]\\d* runs, required\\)");
    }

    @Test
    void lockAndFetchOnH2IsRefusedInOneLine() throws IOException {
        ChildCli.Run r = code("SkipLockedSchedulerCode", "h2");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").contains("newInstance threw java.lang.IllegalArgumentException: Database using "
                + "jdbc-customization 'Default' does not support lock-and-fetch polling");
    }

    @Test
    void theLibrarysOwnRevivalOfADeadExecutionReadsTheJvmsClockAndIsRefused() throws IOException {
        ChildCli.Run r = replay("DefaultRevivalSchedulerCode", "h2", CRASH_AFTER_THE_EFFECT + " relay-1 crash:relay-1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").containsPattern("the outbox query read a lease expiry of 20\\d\\d-.* for row E1, which is not on "
                + "relaycheck's clock .*: the relay reads the JVM's wall clock");
    }
}
