package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.crash.CrashKill;
import dev.relaycheck.jdbc.crash.CrashRound;
import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.jdbc.db.PostgresTarget;
import dev.relaycheck.jdbc.race.RaceConfig;
import dev.relaycheck.jdbc.race.RaceHarness;
import dev.relaycheck.jdbc.race.RaceResult;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** Real threads and a real SIGKILL of the relay JVM against a real PostgreSQL server, which survives it. */
class PostgresRaceAndCrashTest {

    @Test
    void referenceRelaySurvivesRacingPollersAndAnUnfencedAckIsCaught() throws SQLException, InterruptedException {
        PostgresTarget pg = PostgresForTests.target();
        RaceResult ok = RaceHarness.run(RaceConfig.defaults(RelayUnderTest.of(SqlVariant.CORRECT), pg, 11), pg);
        System.out.println(ok.summary());
        assertThat(ok.violations()).as(ok.summary()).isEmpty();
        assertThat(ok.errors()).as(ok.summary()).isZero();
        assertThat(ok.delivered()).isEqualTo(ok.config().events());

        RaceResult caught = null;
        for (int i = 0; i < 5 && caught == null; i++) {
            RaceResult r = RaceHarness.run(RaceConfig.defaults(RelayUnderTest.of(SqlVariant.CLAIM_IGNORES_LEASE), pg, 20 + i), pg);
            if (!r.clean()) {
                caught = r;
            }
        }
        assertThat(caught).as("claim-ignores-lease escaped 5 races on PostgreSQL").isNotNull();
        assertThat(caught.violations()).extracting(v -> v.invariant()).contains(Invariant.SINGLE_LIVE_LEASE);
    }

    @Test
    void relayKilledRightAfterTheConsumerCommitRecoversFromTheServer() throws Exception {
        PostgresTarget pg = PostgresForTests.target();
        CrashKill kill = new CrashKill(Path.of("target", "crash-kill-test"));
        CrashRound ok = kill.round(RelayUnderTest.of(SqlVariant.CORRECT), pg, true, CutPoint.AFTER_CONSUMER_COMMIT, 2, 1, "pg-consumer");
        assertThat(ok.exitCode()).isEqualTo(CrashKill.SIGKILL_EXIT);
        assertThat(ok.problems()).as(ok.summary()).isEmpty();
        assertThat(ok.recovery()).anyMatch(a -> a.endsWith("DUPLICATE E2"));

        CrashRound broken = kill.round(RelayUnderTest.of(SqlVariant.MARKER_BEFORE_EFFECT), pg, true, CutPoint.AFTER_CONSUMER_COMMIT,
                1, 1, "pg-marker-first");
        assertThat(broken.exitCode()).isEqualTo(CrashKill.SIGKILL_EXIT);
        assertThat(broken.problems()).anyMatch(p -> p.startsWith("MARKER_IFF_EFFECT"));
    }
}
