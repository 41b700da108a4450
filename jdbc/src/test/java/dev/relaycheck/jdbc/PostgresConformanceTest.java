package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceCheck.VariantResult;
import dev.relaycheck.jdbc.db.PostgresTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference relay and every broken SQL variant on a real PostgreSQL server, as on H2. A PostgreSQL
 * step costs several H2 steps, so the default budget is small: seeds per scenario from
 * -Drelaycheck.pg.seeds (default 6 per scenario for the reference relay, marker-retention 16: ConformanceCheck.seedsOf).
 * By default the broken variants run here are a few whose catch rests on what the database does (locks, transactions,
 * its clock, a broken token fence); -Drelaycheck.long=true adds one per invariant, -Drelaycheck.pg.allVariants=true
 * runs them all, as SqlConformanceTest does on H2.
 */
class PostgresConformanceTest {
    static final int SEEDS = Integer.getInteger("relaycheck.pg.seeds", 6);

    @Test
    void referenceRelayAgreesWithTheModelOnEveryStep() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(SqlVariant.CORRECT), pg, 1, SEEDS, null);
        System.out.println("reference on postgres: " + r.detail() + ", " + r.stepsPerSecond() + " steps/s");
        assertThat(r.firstFailure()).as(r.detail()).isNull();
        assertThat(r.asExpected()).as(r.detail()).isTrue();
    }

    /** --db jdbc:postgresql://...: a server the user runs (here: relaycheck's own, reached by its URL). */
    @Test
    void aServerTheUserRunsIsReachedByItsUrl() throws SQLException {
        PostgresTarget external = PostgresTarget.external(PostgresForTests.target().url());
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(SqlVariant.CORRECT), external, 3, 1, null);
        assertThat(r.firstFailure()).as(r.detail()).isNull();
        assertThat(r.schedules()).isEqualTo(ConformanceCheck.schedules(RelayUnderTest.of(SqlVariant.CORRECT), 1));
        assertThat(external.arg()).startsWith("jdbc:postgresql://127.0.0.1:");
    }

    static final Set<SqlVariant> ON_POSTGRES = EnumSet.of(SqlVariant.ACK_IGNORES_TOKEN, SqlVariant.CLAIM_IGNORES_LEASE,
            SqlVariant.CHECK_THEN_ACT_CLAIM, SqlVariant.LEASE_NEVER_EXPIRES, SqlVariant.EFFECT_BEFORE_MARKER,
            SqlVariant.NO_HEAD_OF_AGGREGATE, SqlVariant.OUTBOX_OUTSIDE_TRANSACTION, SqlVariant.RENEWAL_BY_OWNER,
            SqlVariant.BATCH_ACK_WHOLE_BATCH, SqlVariant.CLEANUP_DELETES_IN_FLIGHT);

    static final Set<SqlVariant> BY_DEFAULT = EnumSet.of(SqlVariant.ACK_IGNORES_TOKEN, SqlVariant.CHECK_THEN_ACT_CLAIM,
            SqlVariant.LEASE_NEVER_EXPIRES, SqlVariant.OUTBOX_OUTSIDE_TRANSACTION);

    static Stream<SqlVariant> brokenVariants() {
        boolean all = Boolean.getBoolean("relaycheck.pg.allVariants");
        Set<SqlVariant> some = Boolean.getBoolean("relaycheck.long") ? ON_POSTGRES : BY_DEFAULT;
        return Arrays.stream(SqlVariant.values()).filter(v -> v != SqlVariant.CORRECT && (all || some.contains(v)));
    }

    @ParameterizedTest
    @MethodSource("brokenVariants")
    void brokenSqlVariantIsCaughtOnPostgres(SqlVariant variant) throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(variant), pg, 1, Math.max(SEEDS, SqlChecks.CONTROL_SEEDS),
                variant.exposingScenario(), variant.exposingSeeds(), null); // as the SQL checks run their controls
        System.out.println(variant.id() + " on postgres: " + r.verdict() + " " + r.detail());
        assertThat(r.verdict()).as(r.detail()).isEqualTo("CAUGHT");
        // caught by an invariant, or (app-clock-expiry, see ClockSkewSqlTest) by the expiry its claim writes
        assertThat(r.firstFailure().violation() != null || r.firstFailure().divergence() != null).as(r.detail()).isTrue();
    }
}
