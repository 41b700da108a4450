package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.SqlHazardRuns.Run;
import dev.relaycheck.jdbc.conformance.ConformanceCheck;
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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clock skew on real databases: each poller's {@code :app_now} is the database's {@code :now} plus the skew
 * the schedule chose. The reference judges leases on {@code :now}; app-clock-expiry (an edit) writes and judges them
 * on {@code :app_now}, so a poller whose clock runs ahead of the lease's writer takes a live lease. A lease is live on
 * the clock its expiry was written on: when every clock runs equally ahead nobody takes a live lease, and nothing is
 * reported as if one had. The conformance walks follow the reference, which never claims early, so they catch the edit
 * by its lease's expiry (written on the poller's clock), not by a double claim. On H2 and on PostgreSQL.
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

        // both clocks one tick ahead: p1's lease ends on its own clock when p2 takes the row, as with no skew at all
        Run together = SqlHazardRuns.byHand(SqlVariant.APP_CLOCK_EXPIRY, db, ReferenceScenarios.clockSkew(),
                "Skew(p1,+1)", "Skew(p2,+1)", "Claim(p1)", "Tick", "Tick", "Claim(p2)");
        assertThat(together.broke()).isEmpty();
        assertThat(together.last()).isEqualTo(new Outcome.Claimed(List.of(new Outcome.Grant("E1", 2, 5, true))));
        assertThat(together.end().row("E1").orElseThrow().lease()).hasToString("p2/t2/exp5 on a clock db+1");
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
        caughtByItsExpiry(DbTarget.h2());
    }

    @Test
    void onPostgresTheReferenceConformsUnderSkewAndAppClockExpiryIsCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.clockSkew(), 6)).contains(Witness.CLOCK_SKEWED);
        caughtByItsExpiry(pg);
    }

    /** The conformance walks catch app-clock-expiry by the expiry its claim writes on the poller's clock, saying so. */
    private static void caughtByItsExpiry(DbTarget db) throws SQLException {
        SqlVariant v = SqlVariant.APP_CLOCK_EXPIRY;
        ConformanceCheck.VariantResult r = ConformanceCheck.run(RelayUnderTest.of(v), db, 1, SqlChecks.CONTROL_SEEDS,
                v.exposingScenario(), v.exposingSeeds(), null);
        assertThat(r.verdict()).as(r.detail()).isEqualTo("CAUGHT");
        assertThat(r.firstFailure().scenario()).isEqualTo("clock-skew");
        assertThat(r.firstFailure().violation()).as(r.detail()).isNull();
        assertThat(r.detail()).containsPattern("diverged from the model .*model E1:PENDING\\[p1/t1/exp2\\], "
                + "sql E1:PENDING\\[p1/t1/exp\\d on a clock db[+-]1\\]");
    }
}
