package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.SqlHazardRuns.Run;
import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.PostgresTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Witness;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outbox cleanup job on real databases: the relay file's {@code cleanup} statement runs where a schedule has a
 * Cleanup step. The reference's ({@code DELETE ... WHERE status = 'DELIVERED'}) deletes E1 once it is delivered and
 * nothing else; cleanup-deletes-in-flight ({@code ... OR lease_token IS NOT NULL}, Spring Modulith 2.0.5's {@code OR
 * STATUS = 'PROCESSING'}) also deletes E2 while p1 works on it, and p1's failed delivery then has nothing to release:
 * the event is lost. On H2 and on PostgreSQL.
 */
class OutboxCleanupSqlTest {
    /** E1 delivered, E2 claimed; the job runs; p1's delivery of E2 fails and it releases. */
    static final String[] PURGE_IN_FLIGHT = {"Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)", "Claim(p1)", "Cleanup",
            "DeliverFails(p1,E2)", "Release(p1,E2,t2)"};

    static void aPurgeOfTheRowInFlightLosesItsEvent(DbTarget db) throws SQLException {
        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.outboxCleanup(), PURGE_IN_FLIGHT);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.outcomes().get(4)).hasToString("CLEANED_UP at t=0: deleted E1:DELIVERED");
        assertThat(reference.last()).isEqualTo(new Outcome.Released("E2", 2));
        assertThat(reference.end().row("E1")).isEmpty();
        assertThat(reference.end().surroundings().cleanedUp()).containsOnlyKeys("E1");

        Run purge = SqlHazardRuns.byHand(SqlVariant.CLEANUP_DELETES_IN_FLIGHT, db, ReferenceScenarios.outboxCleanup(), PURGE_IN_FLIGHT);
        assertThat(purge.outcomes().get(4)).hasToString("CLEANED_UP at t=0: deleted E1:DELIVERED, E2:PENDING[p1/t2/exp2]");
        assertThat(purge.last()).isEqualTo(new Outcome.Stale("E2", 2, Outcome.ROW_DELETED));
        assertThat(purge.broke()).containsExactly(Invariant.NO_LOST_EVENT); // at the release: nobody holds E2 any more
        assertThat(purge.end().row("E2")).as("the relay's table really lost the row").isEmpty();
        assertThat(purge.end().consumer().effectCount("E2")).isZero();
    }

    @Test
    void onH2APurgeOfTheRowInFlightLosesItsEventAndTheReferencePurgeDoesNot() throws SQLException {
        aPurgeOfTheRowInFlightLosesItsEvent(DbTarget.h2());
    }

    @Test
    void onPostgresAPurgeOfTheRowInFlightLosesItsEventAndTheReferencePurgeDoesNot() throws SQLException {
        aPurgeOfTheRowInFlightLosesItsEvent(PostgresForTests.target());
    }

    @Test
    void onH2TheReferenceConformsWithItsCleanupAndTheInFlightPurgeIsCaught() throws SQLException {
        assertThat(SqlHazardRuns.referenceConforms(DbTarget.h2(), ReferenceScenarios.outboxCleanup(), 12)).contains(Witness.ROW_CLEANED_UP);
        SqlHazardRuns.caughtByConformance(SqlVariant.CLEANUP_DELETES_IN_FLIGHT, DbTarget.h2(), Invariant.NO_LOST_EVENT);
    }

    @Test
    void onPostgresTheReferenceConformsWithItsCleanupAndTheInFlightPurgeIsCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.outboxCleanup(), 6)).contains(Witness.ROW_CLEANED_UP);
        SqlHazardRuns.caughtByConformance(SqlVariant.CLEANUP_DELETES_IN_FLIGHT, pg, Invariant.NO_LOST_EVENT);
    }

    @Test
    void aRelayFileWithoutACleanupIsValidAndIsNotRunOnTheCleanupScenario() {
        String withoutCleanup = RelaySqlFile.referenceText().replaceAll("(?s)-- name: cleanup\\n[^\\n]*\\n", "");
        RelaySqlFile file = RelaySqlFile.parse(withoutCleanup, "no-cleanup.sql");
        assertThat(file.has("cleanup")).isFalse();
        assertThat(new dev.relaycheck.jdbc.adapter.SqlFileAdapter(file).cleansUp()).isFalse();
        assertThat(RelaySqlFile.reference().has("cleanup")).isTrue();
        assertThat(dev.relaycheck.jdbc.conformance.ConformanceCheck.scenarios(RelayUnderTest.of(SqlVariant.CORRECT)))
                .extracting(dev.relaycheck.model.Scenario::name).contains("outbox-cleanup");
    }
}
