package com.example.gruelbox;

import dev.relaycheck.checker.cli.ChildCli;
import dev.relaycheck.model.command.ShellWords;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.relaycheck.checker.cli.ChildCli.runAsUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * gruelbox transaction-outbox checked by its own code ({@code relaycheck code}), configured as a library user does
 * (its own TransactionManager on relaycheck's DataSource, relaycheck's clock), no adapter: with the handler's effect
 * inside gruelbox's transaction it passes, with a crash while it holds an entry reached; with the effect committed on
 * its own it fails EFFECT_AT_MOST_ONCE, and the replay line reproduces it. On H2 and PostgreSQL.
 */
class GruelboxCodeTest {
    static final String PACKAGE = "com.example.gruelbox.relaycheck.";

    /** gruelbox and what it needs, as the team passes them with --classpath. */
    static List<String> gruelboxJars() throws IOException {
        return List.of(Files.readString(Path.of("target", "gruelbox.classpath"), StandardCharsets.UTF_8).strip().split(File.pathSeparator));
    }

    static String classpath() throws IOException {
        return Path.of("target", "classes").toAbsolutePath() + File.pathSeparator + String.join(File.pathSeparator, gruelboxJars());
    }

    /**
     * relaycheck with the team's classes and gruelbox itself on --classpath only, as outside this build (gruelbox
     * loads the handler class by name, with its own class loader).
     */
    static ChildCli.Run code(String... args) throws IOException {
        return runAsUser(gruelboxJars().stream().filter(j -> j.contains("transactionoutbox")).toList(), args);
    }

    static void assumeDatabase(String db) {
        if (db.equals("postgres")) {
            Assumptions.assumeTrue(ChildCli.postgresHere(), "PostgreSQL checks skipped: no server binaries on this machine");
        }
    }

    static String runs(String db) {
        return db.equals("h2") ? "40" : "24";
    }

    /** H2; PostgreSQL too with -Drelaycheck.long=true (the PostgreSQL negative controls of this route run in GruelboxCheckTest and the code module). */
    static List<String> databases() {
        return Boolean.getBoolean("relaycheck.long") ? List.of("h2", "postgres") : List.of("h2");
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("databases")
    void theEffectInsideGruelboxsTransactionPasses(String db) throws IOException {
        assumeDatabase(db);
        ChildCli.Run r = code("code", "--relay", PACKAGE + "GruelboxCode", "--classpath", classpath(), "--db", db,
                "--runs", runs(db), "--out", "target/code-safe-" + db);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("  PASSED\n").containsPattern("an instance crashing while it held a lease \\([1-9]\\d* runs, required\\)");
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("databases")
    void theEffectCommittedOnItsOwnIsAppliedTwice(String db) throws IOException {
        assumeDatabase(db);
        ChildCli.Run r = code("code", "--relay", PACKAGE + "ExternalEffectGruelboxCode", "--classpath", classpath(), "--db", db,
                "--runs", runs(db), "--out", "target/code-external-" + db);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).containsPattern("FAILED EFFECT_AT_MOST_ONCE in run \\d+ \\(\\w+ seed -?\\d+(, its \\d+ scheduled steps shrunk to \\d+)?\\): E\\d's effect was applied 2 times");
        String replay = r.out().lines().filter(l -> l.startsWith("    replay: ")).findFirst().orElseThrow();
        List<String> args = ShellWords.split(replay.substring(replay.indexOf(" code replay ") + 1));
        ChildCli.Run again = code(args.toArray(String[]::new));
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).containsPattern("REPRODUCED EFFECT_AT_MOST_ONCE at step \\d+: E\\d's effect was applied 2 times");
    }
}
