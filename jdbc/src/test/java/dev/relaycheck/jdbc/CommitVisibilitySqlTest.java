package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.SqlHazardRuns.Run;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.PostgresTarget;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Witness;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commit visibility on real databases: overlapping producer transactions (E1 takes seq 1, E2 takes seq 2
 * and commits first) against the reference relay (claims by status) and the cursor-by-sequence relay file
 * (claim-select {@code AND o.seq > :cursor}), on H2 and on PostgreSQL. The uncommitted row is really invisible to
 * the claim, so the cursor really passes it.
 */
class CommitVisibilitySqlTest {
    /** p1 claims E2 while E1's transaction is open; E1 commits below the cursor; then p2 looks for work. */
    static final String[] WATERMARK_SKIP = {"Begin(E1)", "Begin(E2)", "Commit(E2)", "Claim(p1)", "Commit(E1)", "Claim(p2)"};

    static void cursorRelaySkipsTheLateRow(DbTarget db) throws SQLException {
        Run cursor = SqlHazardRuns.byHand(SqlVariant.CURSOR_BY_SEQUENCE, db, ReferenceScenarios.commitVisibility(), WATERMARK_SKIP);
        assertThat(cursor.broke()).startsWith(Invariant.NO_LOST_EVENT);
        assertThat(cursor.outcomes().get(4)).isEqualTo(new Outcome.Committed("E1", true));
        // not bookkeeping alone: E1 is committed and PENDING with no lease, and the relay's real claim does not return it
        assertThat(cursor.end().row("E1").orElseThrow().status()).isEqualTo(RowStatus.PENDING);
        assertThat(cursor.end().row("E1").orElseThrow().hasLease()).isFalse();
        assertThat(cursor.last()).isEqualTo(new Outcome.Claimed(List.of()));

        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.commitVisibility(), WATERMARK_SKIP);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.last()).isInstanceOfSatisfying(Outcome.Claimed.class,
                c -> assertThat(c.grants()).extracting(Outcome.Grant::eventId).containsExactly("E1"));
    }

    @Test
    void onH2TheCursorRelaySkipsARowThatCommittedLateAndTheReferenceDoesNot() throws SQLException {
        cursorRelaySkipsTheLateRow(DbTarget.h2());
    }

    @Test
    void onPostgresTheCursorRelaySkipsARowThatCommittedLateAndTheReferenceDoesNot() throws SQLException {
        cursorRelaySkipsTheLateRow(PostgresForTests.target());
    }

    @Test
    void onH2TheReferenceConformsWithOverlappingProducersAndTheCursorVariantIsCaught() throws SQLException {
        assertThat(SqlHazardRuns.referenceConforms(DbTarget.h2(), ReferenceScenarios.commitVisibility(), 12)).contains(Witness.LATE_COMMIT);
        SqlHazardRuns.caughtByConformance(SqlVariant.CURSOR_BY_SEQUENCE, DbTarget.h2(), Invariant.NO_LOST_EVENT);
    }

    @Test
    void onPostgresTheReferenceConformsWithOverlappingProducersAndTheCursorVariantIsCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.commitVisibility(), 6)).contains(Witness.LATE_COMMIT);
        SqlHazardRuns.caughtByConformance(SqlVariant.CURSOR_BY_SEQUENCE, pg, Invariant.NO_LOST_EVENT);
    }
}
