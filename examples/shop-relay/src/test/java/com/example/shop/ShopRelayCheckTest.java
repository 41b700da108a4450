package com.example.shop;

import dev.relaycheck.checker.cli.ChildCli;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static dev.relaycheck.checker.cli.ChildCli.runAsUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shop's relay through relaycheck's public commands only, on H2 and on a real PostgreSQL server: the
 * relay passes conformance, races and crash-kill; its broken copy (mark-sent without the lock version)
 * fails with STALE_ACK_REJECTED, and the printed replay line reproduces it. With {@code --controls no}: the
 * shipped broken variants, which prove the checks themselves on each database, are the jdbc module's tests.
 */
class ShopRelayCheckTest {
    static final String ADAPTER = "com.example.shop.relaycheck.ShopRelayAdapter";
    static final String BROKEN = "com.example.shop.relaycheck.UnfencedShopRelayAdapter";
    /** The shop's compiled classes, what a user passes as --classpath (ChildCli.runAsUser leaves them off its own). */
    static final Path SHOP_CLASSES = Path.of("target", "classes").toAbsolutePath();

    static void assumeDatabase(String db) {
        if (db.equals("postgres")) {
            Assumptions.assumeTrue(ChildCli.postgresHere(), "PostgreSQL checks skipped: no server binaries on this machine");
        }
    }

    static String seeds(String db) {
        return db.equals("h2") ? "20" : "4";
    }

    /** H2; PostgreSQL too with -Drelaycheck.long=true (the broken copy below is caught on both by default). */
    static List<String> passingDatabases() {
        return Boolean.getBoolean("relaycheck.long") ? List.of("h2", "postgres") : List.of("h2");
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("passingDatabases")
    void theShopsRelayPassesEveryCheck(String db) throws Exception {
        assumeDatabase(db);
        ChildCli.Run r = runAsUser("sql", "all", "--adapter", ADAPTER, "--classpath", SHOP_CLASSES.toString(),
                "--db", db, "--seeds", seeds(db), "--rounds", "1", "--controls", "no", "--out", "target/relaycheck-" + db);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sql-conformance: PASS").contains("sql-race: PASS").contains("sql-crash-kill: PASS")
                .containsPattern("  " + ADAPTER.replace(".", "\\.") + " +PASS ");
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"h2", "postgres"})
    void theBrokenCopyFailsWithStaleAckRejectedAndReplays(String db) throws Exception {
        assumeDatabase(db);
        ChildCli.Run r = runAsUser("sql", "conformance", "--adapter", BROKEN, "--classpath", SHOP_CLASSES.toString(),
                "--db", db, "--seeds", db.equals("h2") ? "20" : "10", "--controls", "no", "--out", "target/relaycheck-broken-" + db);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        String row = r.out().lines().filter(l -> l.startsWith("  " + BROKEN)).findFirst().orElseThrow(() -> new AssertionError(r.toString()));
        assertThat(row).contains("FAILED").contains("STALE_ACK_REJECTED").contains("replay: ./relaycheck sql replay --adapter " + BROKEN);

        String[] replay = row.substring(row.indexOf("replay: ./relaycheck ") + "replay: ./relaycheck ".length()).strip().split(" ");
        ChildCli.Run again = runAsUser(replay);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).contains("REPRODUCED").contains("STALE_ACK_REJECTED");
    }
}
