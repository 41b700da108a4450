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
 * Lease renewal on real databases: the relay file's {@code renew} (the reference fences it by token and
 * re-checks expiry) against its two broken edits, on H2 and on PostgreSQL.
 */
class LeaseRenewalSqlTest {
    /** p1 claims E1 and stalls past its lease; p2 takes the row over; then p1's heartbeat fires. */
    static final String[] RENEW_AFTER_TAKEOVER = {"Claim(p1)", "Tick", "Tick", "Claim(p2)", "Renew(p1,E1,t1)"};

    static void staleHeartbeatIsRefusedOnlyByTheFencedRenewal(DbTarget db) throws SQLException {
        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.leaseRenewal(), RENEW_AFTER_TAKEOVER);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.last()).isEqualTo(new Outcome.RenewalRefused("E1", 1, 2, List.of("E1")));
        assertThat(reference.end().poller(0).isIdle()).isTrue(); // told it lost the lease, p1 gave up its batch

        for (SqlVariant broken : List.of(SqlVariant.RENEWAL_BY_OWNER, SqlVariant.RENEWAL_IGNORES_EXPIRY)) {
            Run r = SqlHazardRuns.byHand(broken, db, ReferenceScenarios.leaseRenewal(), RENEW_AFTER_TAKEOVER);
            assertThat(r.broke()).as(broken.id()).containsExactly(Invariant.SINGLE_LIVE_LEASE);
            assertThat(r.last()).as(broken.id()).isEqualTo(new Outcome.Renewed("E1", 1, 4));
        }
    }

    static void liveHeartbeatExtendsTheLease(DbTarget db) throws SQLException {
        Run reference = SqlHazardRuns.byHand(SqlVariant.CORRECT, db, ReferenceScenarios.leaseRenewal(), "Claim(p1)", "Tick", "Renew(p1,E1,t1)");
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.last()).isEqualTo(new Outcome.Renewed("E1", 1, 3));
        assertThat(reference.end().row("E1").orElseThrow().lease().expiry()).isEqualTo(3);
    }

    @Test
    void onH2AStalledPollersHeartbeatRenewsATakenOverLeaseOnlyWithoutTheTokenFence() throws SQLException {
        staleHeartbeatIsRefusedOnlyByTheFencedRenewal(DbTarget.h2());
        liveHeartbeatExtendsTheLease(DbTarget.h2());
    }

    @Test
    void onPostgresAStalledPollersHeartbeatRenewsATakenOverLeaseOnlyWithoutTheTokenFence() throws SQLException {
        staleHeartbeatIsRefusedOnlyByTheFencedRenewal(PostgresForTests.target());
        liveHeartbeatExtendsTheLease(PostgresForTests.target());
    }

    @Test
    void onH2TheReferenceConformsWithRenewalsAndBothBrokenRenewalsAreCaught() throws SQLException {
        assertThat(SqlHazardRuns.referenceConforms(DbTarget.h2(), ReferenceScenarios.leaseRenewal(), 12))
                .contains(Witness.LEASE_RENEWED, Witness.RENEWAL_REFUSED, Witness.LEASE_RECLAIMED);
        SqlHazardRuns.caughtByConformance(SqlVariant.RENEWAL_BY_OWNER, DbTarget.h2(), Invariant.SINGLE_LIVE_LEASE);
        SqlHazardRuns.caughtByConformance(SqlVariant.RENEWAL_IGNORES_EXPIRY, DbTarget.h2(), Invariant.SINGLE_LIVE_LEASE);
    }

    @Test
    void onPostgresTheReferenceConformsWithRenewalsAndBothBrokenRenewalsAreCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(SqlHazardRuns.referenceConforms(pg, ReferenceScenarios.leaseRenewal(), 6))
                .contains(Witness.LEASE_RENEWED, Witness.RENEWAL_REFUSED);
        SqlHazardRuns.caughtByConformance(SqlVariant.RENEWAL_BY_OWNER, pg, Invariant.SINGLE_LIVE_LEASE);
        SqlHazardRuns.caughtByConformance(SqlVariant.RENEWAL_IGNORES_EXPIRY, pg, Invariant.SINGLE_LIVE_LEASE);
    }
}
