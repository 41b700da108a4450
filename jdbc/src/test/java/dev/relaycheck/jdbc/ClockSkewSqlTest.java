package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.SqlHazardRuns.Run;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Witness;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20's clock skew on real databases: each poller's {@code :app_now} is the database's {@code :now} plus the skew
 * the schedule chose. The reference judges leases on {@code :now}; app-clock-expiry (an edit) writes and judges them
 * on {@code :app_now}, so a poller whose clock runs ahead takes a live lease. On H2 and on PostgreSQL.
 */
class ClockSkewSqlTest {
    /** p1 (on time) leases E1 until 2; one tick later p2, whose clock runs one tick ahead, looks for work. */
    static final String[] AHEAD = {"Skew(p1,0)", "Skew(p2,+1)", "Claim(p1)", "Tick", "Claim(p2)"};

    static void aPollerAheadTakesALiveLeaseOnlyOnItsOwnClock(DbTarget db) throws SQLException {
        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.clockSkew(), AHEAD);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.outcomes().get(1)).isEqualTo(new Outcome.Skewed("p2", 1));
        assertThat(reference.last()).isEqualTo(new Outcome.Claimed(List.of()));

        Run app = SqlHazardRuns.byHand(SqlVariant.APP_CLOCK_EXPIRY, db, ReferenceScenarios.clockSkew(), AHEAD);
        assertThat(app.broke()).containsExactly(Invariant.SINGLE_LIVE_LEASE);
        assertThat(app.last()).isEqualTo(new Outcome.Claimed(List.of(new Outcome.Grant("E1", 2, 4, true))));
    }

    @Test
    void onH2APollerWhoseClockRunsAheadTakesALiveLeaseOnlyOnTheAppClock() throws SQLException {
        aPollerAheadTakesALiveLeaseOnlyOnItsOwnClock(DbTarget.h2());
    }

    @Test
    void onPostgresAPollerWhoseClockRunsAheadTakesALiveLeaseOnlyOnTheAppClock() throws SQLException {
        aPollerAheadTakesALiveLeaseOnlyOnItsOwnClock(PostgresForTests.target());
    }

    @Test
    void onH2TheReferenceConformsUnderSkewAndAppClockExpiryIsCaught() throws SQLException {
        assertThat(SqlHazardRuns.referenceConforms(DbTarget.h2(), ReferenceScenarios.clockSkew(), 8))
                .contains(Witness.CLOCK_SKEWED, Witness.LEASE_RECLAIMED);
        SqlHazardRuns.caughtByConformance(SqlVariant.APP_CLOCK_EXPIRY, DbTarget.h2(), Invariant.SINGLE_LIVE_LEASE);
    }

    @Test
    void onPostgresTheReferenceConformsUnderSkewAndAppClockExpiryIsCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.clockSkew(), 6)).contains(Witness.CLOCK_SKEWED);
        SqlHazardRuns.caughtByConformance(SqlVariant.APP_CLOCK_EXPIRY, pg, Invariant.SINGLE_LIVE_LEASE);
    }
}
