package com.example.shop;

import dev.relaycheck.checker.cli.ChildCli;
import dev.relaycheck.model.command.ShellWords;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;

import static dev.relaycheck.checker.cli.ChildCli.runAsUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shop's relay checked by its own code ({@code relaycheck code}), unchanged: relaycheck builds its instances with
 * {@code ShopRelayCode} and drives their statements on H2 and on PostgreSQL. The relay passes; the broken copy fails
 * with STALE_ACK_REJECTED, and the replay line, pasted into a second process, runs the same statements again.
 */
class ShopRelayCodeTest {
    static final Path SHOP_CLASSES = Path.of("target", "classes").toAbsolutePath();

    static void assumeDatabase(String db) {
        if (db.equals("postgres")) {
            Assumptions.assumeTrue(ChildCli.postgresHere(), "PostgreSQL checks skipped: no server binaries on this machine");
        }
    }

    static String runs(String db) {
        return db.equals("h2") ? "40" : "16";
    }

    /** H2; PostgreSQL too with -Drelaycheck.long=true (the PostgreSQL negative controls of this route run in the code module). */
    static List<String> databases() {
        return Boolean.getBoolean("relaycheck.long") ? List.of("h2", "postgres") : List.of("h2");
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("databases")
    void theShopsRelayPassesByItsOwnCode(String db) {
        assumeDatabase(db);
        ChildCli.Run r = runAsUser("code", "--relay", "com.example.shop.relaycheck.ShopRelayCode", "--classpath", SHOP_CLASSES.toString(),
                "--db", db, "--runs", runs(db), "--out", "target/relaycheck-code-" + db);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("  PASSED\n").containsPattern("a lease that ran out taken over by another instance \\([1-9]\\d* runs, required\\)");
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("databases")
    void theBrokenCopyFailsAndItsReplayRunsTheSameStatements(String db) {
        assumeDatabase(db);
        ChildCli.Run r = runAsUser("code", "--relay", "com.example.shop.relaycheck.UnfencedShopRelayCode", "--classpath",
                SHOP_CLASSES.toString(), "--db", db, "--runs", runs(db), "--out", "target/relaycheck-code-broken-" + db);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).containsPattern("FAILED STALE_ACK_REJECTED in run \\d+ \\(\\w+ seed -?\\d+(, its \\d+ scheduled steps shrunk to \\d+)?\\): relay-\\d'* changed E\\d");
        String replay = r.out().lines().filter(l -> l.startsWith("    replay: ")).findFirst().orElseThrow();
        List<String> args = ShellWords.split(replay.substring(replay.indexOf(" code replay ") + 1));
        String trace = r.out().substring(r.out().indexOf("FAILED STALE_ACK_REJECTED"), r.out().indexOf(replay));
        String culprit = trace.lines().filter(l -> l.endsWith("<== STALE_ACK_REJECTED")).findFirst().orElseThrow().strip();

        ChildCli.Run again = runAsUser(args.toArray(String[]::new));
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).contains("REPRODUCED STALE_ACK_REJECTED").contains(culprit);
    }
}
