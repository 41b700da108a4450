package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.SqlHazardRuns.Run;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.PostgresTarget;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Witness;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dedup retention on real databases: the consumer's inbox cleanup (relaycheck's side) deleting markers
 * past a retention, against a lost ack whose redelivery comes two ticks after the marker (leases of one tick): the
 * reference consumer keeps markers and absorbs it late; purge-at-ack and a one-lease retention apply it again. On H2
 * and on PostgreSQL.
 */
class DedupRetentionSqlTest {
    /** p1's ack is lost; its lease expires; p2 re-claims and redelivers two ticks after the marker was written. */
    static final String[] LATE_REDELIVERY = {"Claim(p1)", "Deliver(p1,E1,t1)", "LoseAck(p1,E1)", "Tick", "Tick", "Claim(p2)",
            "Deliver(p2,E1,t2)"};

    static void aRetentionShorterThanTheRedeliveryAppliesItTwice(DbTarget db) throws SQLException {
        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.markerRetention(), LATE_REDELIVERY);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.last()).isEqualTo(new Outcome.LateDuplicate("E1", 2));
        assertThat(reference.end().consumer().effectCount("E1")).isEqualTo(1);

        for (SqlVariant short_ : List.of(SqlVariant.PURGE_AT_ACK, SqlVariant.RETENTION_SHORTER_THAN_REDELIVERY)) {
            Run r = SqlHazardRuns.byHand(short_, db, ReferenceScenarios.markerRetention(), LATE_REDELIVERY);
            // purged by policy is not "never written": MARKER_IFF_EFFECT holds; the second effect breaks at-most-once
            // (the second effect of one seq also lands out of order: AGGREGATE_ORDER on the same step, after it)
            assertThat(r.broke()).as(short_.id()).startsWith(Invariant.EFFECT_AT_MOST_ONCE).doesNotContain(Invariant.MARKER_IFF_EFFECT);
            assertThat(r.last()).as(short_.id()).isEqualTo(new Outcome.Applied("E1"));
            assertThat(r.end().consumer().effectCount("E1")).as(short_.id()).isEqualTo(2);
            assertThat(r.end().consumer().wasPurged("E1")).as(short_.id()).isTrue();
        }
    }

    @Test
    void onH2AMarkerPurgedBeforeTheRedeliveryLetsItApplyAgain() throws SQLException {
        aRetentionShorterThanTheRedeliveryAppliesItTwice(DbTarget.h2());
    }

    @Test
    void onPostgresAMarkerPurgedBeforeTheRedeliveryLetsItApplyAgain() throws SQLException {
        aRetentionShorterThanTheRedeliveryAppliesItTwice(PostgresForTests.target());
    }

    @Test
    void onH2TheReferenceConformsOnMarkerRetentionAndBothRetentionsAreCaught() throws SQLException {
        assertThat(SqlHazardRuns.referenceConforms(DbTarget.h2(), ReferenceScenarios.markerRetention(), 12))
                .contains(Witness.DUPLICATE_ABSORBED, Witness.LATE_REDELIVERY);
        SqlHazardRuns.caughtByConformance(SqlVariant.PURGE_AT_ACK, DbTarget.h2(), Invariant.EFFECT_AT_MOST_ONCE);
        SqlHazardRuns.caughtByConformance(SqlVariant.RETENTION_SHORTER_THAN_REDELIVERY, DbTarget.h2(), Invariant.EFFECT_AT_MOST_ONCE);
    }

    @Test
    void onPostgresTheReferenceConformsOnMarkerRetentionAndBothRetentionsAreCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.markerRetention(), 12)).contains(Witness.LATE_REDELIVERY);
        SqlHazardRuns.caughtByConformance(SqlVariant.PURGE_AT_ACK, pg, Invariant.EFFECT_AT_MOST_ONCE);
        SqlHazardRuns.caughtByConformance(SqlVariant.RETENTION_SHORTER_THAN_REDELIVERY, pg, Invariant.EFFECT_AT_MOST_ONCE);
    }
}
