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
 * Settle hazards on real databases: which rows an ack touches (the reference acks one row by id and token;
 * batch-ack-whole-batch's ack, an edit, marks the poller's rows by owner) and whether the poller reads what its ack
 * or release matched (ignores-settle-result, relaycheck's poller side), on H2 and on PostgreSQL.
 */
class SettleSqlTest {
    /** p1 holds E1 and E2, delivers E1 and acks it while E2 is still to deliver. */
    static final String[] ACK_MID_BATCH = {"Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"};
    /** p1 delivers E1 and stalls past its lease; p2 takes E1 over; p1's ack comes late. */
    static final String[] LATE_ACK = {"Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Claim(p2)", "Ack(p1,E1,t1)"};

    static void batchAckMarksTheUndeliveredRow(DbTarget db) throws SQLException {
        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.batchAck(), ACK_MID_BATCH);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.last()).isEqualTo(new Outcome.AckedMidBatch("E1", 1, List.of("E2"), List.of()));

        Run batch = SqlHazardRuns.byHand(SqlVariant.BATCH_ACK_WHOLE_BATCH, db, ReferenceScenarios.batchAck(), ACK_MID_BATCH);
        assertThat(batch.broke()).containsExactly(Invariant.NO_LOST_EVENT);
        assertThat(batch.last()).isEqualTo(new Outcome.AckedMidBatch("E1", 1, List.of("E2"), List.of("E2")));
    }

    static void aBlindUnlockWipesTheSuccessorsLease(DbTarget db) throws SQLException {
        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.unmatchedSettle(), LATE_ACK);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.last()).isEqualTo(new Outcome.Unmatched(Outcome.Unmatched.ACK, "E1", 1, 2, false));
        assertThat(reference.end().row("E1").orElseThrow().lease().token()).isEqualTo(2);

        Run blind = SqlHazardRuns.byHand(SqlVariant.IGNORES_SETTLE_RESULT, db, ReferenceScenarios.unmatchedSettle(), LATE_ACK);
        assertThat(blind.broke()).containsExactly(Invariant.STALE_ACK_REJECTED);
        assertThat(blind.last()).isEqualTo(new Outcome.Unmatched(Outcome.Unmatched.ACK, "E1", 1, 2, true));
        assertThat(blind.end().row("E1").orElseThrow().hasLease()).isFalse(); // p2 still works on E1, its lease is gone
    }

    @Test
    void onH2ABatchWideAckAndABlindUnlockBreakWhatTheReferenceKeeps() throws SQLException {
        batchAckMarksTheUndeliveredRow(DbTarget.h2());
        aBlindUnlockWipesTheSuccessorsLease(DbTarget.h2());
    }

    @Test
    void onPostgresABatchWideAckAndABlindUnlockBreakWhatTheReferenceKeeps() throws SQLException {
        batchAckMarksTheUndeliveredRow(PostgresForTests.target());
        aBlindUnlockWipesTheSuccessorsLease(PostgresForTests.target());
    }

    @Test
    void onH2TheReferenceConformsOnBothSettleScenariosAndBothVariantsAreCaught() throws SQLException {
        assertThat(SqlHazardRuns.referenceConforms(DbTarget.h2(), ReferenceScenarios.batchAck(), 8)).contains(Witness.ACK_MID_BATCH);
        assertThat(SqlHazardRuns.referenceConforms(DbTarget.h2(), ReferenceScenarios.unmatchedSettle(), 12))
                .contains(Witness.UNMATCHED_ACK, Witness.UNMATCHED_RELEASE);
        SqlHazardRuns.caughtByConformance(SqlVariant.BATCH_ACK_WHOLE_BATCH, DbTarget.h2(), Invariant.NO_LOST_EVENT);
        SqlHazardRuns.caughtByConformance(SqlVariant.IGNORES_SETTLE_RESULT, DbTarget.h2(), Invariant.STALE_ACK_REJECTED);
    }

    @Test
    void onPostgresTheReferenceConformsOnBothSettleScenariosAndBothVariantsAreCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.batchAck(), 4)).contains(Witness.ACK_MID_BATCH);
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.unmatchedSettle(), 6)).contains(Witness.UNMATCHED_ACK);
        SqlHazardRuns.caughtByConformance(SqlVariant.BATCH_ACK_WHOLE_BATCH, pg, Invariant.NO_LOST_EVENT);
        SqlHazardRuns.caughtByConformance(SqlVariant.IGNORES_SETTLE_RESULT, pg, Invariant.STALE_ACK_REJECTED);
    }
}
