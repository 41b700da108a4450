package com.example.gruelbox;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static com.example.gruelbox.RelaycheckCliRun.adapterClasspath;
import static com.example.gruelbox.RelaycheckCliRun.relaycheck;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * gruelbox transaction-outbox 4.2.268 through relaycheck's public commands only, on H2 and on a real PostgreSQL
 * server (README.md in this folder says what each finding means):
 * <ul>
 *   <li>the handler writing its effect through gruelbox's transaction passes conformance, races and a SIGKILL at
 *       every cut point, the two inside gruelbox's processing transaction included;</li>
 *   <li>a handler whose effect commits elsewhere loses EFFECT_AT_MOST_ONCE when the relay is killed after the
 *       effect and before gruelbox's delete commits;</li>
 *   <li>on PostgreSQL with idle_in_transaction_session_timeout shorter than a stalled handler, the database ends
 *       the transaction holding the row lock: harmless with the effect inside, a duplicate effect outside;</li>
 *   <li>per-aggregate order, which gruelbox does not promise without ordered topics, is checked and reported as
 *       "not promised", never as a failure.</li>
 * </ul>
 */
class GruelboxCheckTest {
    static final String PACKAGE = "com.example.gruelbox.relaycheck.";
    static final String SAFE = PACKAGE + "GruelboxAdapter";
    static final String EXTERNAL = PACKAGE + "ExternalEffectGruelboxAdapter";

    static void assumeDatabase(String db) {
        if (db.equals("postgres")) {
            Assumptions.assumeTrue(RelaycheckCliRun.postgresHere(), "PostgreSQL checks skipped: no server binaries on this machine");
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"h2", "postgres"})
    void theHandlerWritingThroughGruelboxsTransactionPassesEveryCheck(String db) throws Exception {
        assumeDatabase(db);
        RelaycheckCliRun.Result r = relaycheck("sql", "all", "--adapter", SAFE, "--classpath", adapterClasspath(), "--db", db,
                "--seeds", db.equals("h2") ? "4" : "2", "--rounds", "1", "--controls", "no", "--out", "target/relaycheck-safe-" + db);
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sql-conformance: PASS").contains("sql-race: PASS").contains("sql-crash-kill: PASS")
                .contains("killed after-handler-effect #1 (batch 1, exit 137): recovered")
                .contains("killed before-ack-commit #1 (batch 1, exit 137): recovered")
                .contains("not promised by this relay (checked, reported, never a failure): AGGREGATE_ORDER")
                .contains("fenced by a per-row version").contains("delivers and acknowledges in one transaction");
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"h2", "postgres"})
    void aHandlerWhoseEffectCommitsElsewhereLosesEffectAtMostOnceOnAKillAfterTheEffect(String db) throws Exception {
        assumeDatabase(db);
        RelaycheckCliRun.Result r = relaycheck("sql", "crash", "--adapter", EXTERNAL, "--classpath", adapterClasspath(), "--db", db,
                "--rounds", "1", "--controls", "no", "--out", "target/relaycheck-external-" + db);
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("sql-crash-kill: FAIL")
                .contains("killed after-handler-effect #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE: E1 applied 2 times")
                .contains("killed before-ack-commit #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE: E1 applied 2 times")
                .contains("killed after-consumer-commit #1 (batch 1, exit 137): recovered");
    }

    @Test
    void anIdleInTransactionTimeoutKillingTheLockHolderIsHarmlessInsideAndDuplicatesOutside() throws Exception {
        assumeDatabase("postgres");
        RelaycheckCliRun.Result inside = relaycheck("sql", "race", "--adapter", PACKAGE + "IdleTimeoutGruelboxAdapter",
                "--classpath", adapterClasspath(), "--db", "postgres", "--rounds", "1", "--controls", "no",
                "--out", "target/relaycheck-timeout-inside");
        assertThat(inside.exit()).as(inside.toString()).isZero();
        assertThat(inside.out()).contains("sql-race: PASS").containsPattern("\\(\\d+ transactions ended by the database\\)");

        RelaycheckCliRun.Result outside = relaycheck("sql", "race", "--adapter", PACKAGE + "IdleTimeoutExternalEffectGruelboxAdapter",
                "--classpath", adapterClasspath(), "--db", "postgres", "--rounds", "1", "--controls", "no",
                "--out", "target/relaycheck-timeout-outside");
        assertThat(outside.exit()).as(outside.toString()).isEqualTo(1);
        assertThat(outside.out()).contains("sql-race: FAIL").containsPattern("FAILED +EFFECT_AT_MOST_ONCE: E\\d+ applied \\d+ times");
    }
}
