package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceCheck.VariantResult;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.result.SqlFinding;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL relay against the model on the explorer's seeded random schedules. Budget: seeds per scenario
 * from -Drelaycheck.sql.seeds (default 125 per scenario).
 */
class SqlConformanceTest {
    static final long BASE_SEED = 1;
    static final int SEEDS = Integer.getInteger("relaycheck.sql.seeds", 125);

    @Test
    void correctSqlRelayAgreesWithTheModelOnEveryStep() throws SQLException {
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(SqlVariant.CORRECT, ClaimForm.SKIP_LOCKED), DbTarget.h2(), BASE_SEED, SEEDS, System.out);
        assertThat(r.firstFailure()).as(r.detail()).isNull();
        assertThat(r.asExpected()).as(r.detail()).isTrue();
        assertThat(r.schedules()).isEqualTo(ConformanceCheck.schedules(RelayUnderTest.of(SqlVariant.CORRECT), SEEDS));
    }

    @Test
    void conditionalUpdateClaimAgreesToo() throws SQLException {
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(SqlVariant.CORRECT, ClaimForm.CONDITIONAL_UPDATE), DbTarget.h2(), 2, Math.max(1, SEEDS / 5), null);
        assertThat(r.firstFailure()).as(r.detail()).isNull();
    }

    @ParameterizedTest
    @EnumSource(value = SqlVariant.class, names = "CORRECT", mode = EnumSource.Mode.EXCLUDE)
    void brokenSqlVariantIsCaught(SqlVariant variant) throws SQLException {
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(variant, ClaimForm.SKIP_LOCKED), DbTarget.h2(), BASE_SEED, SEEDS,
                variant.exposingScenario(), variant.exposingSeeds(), null); // as the SQL checks run their controls
        System.out.println(variant.id() + ": " + r.verdict() + " " + r.detail());
        assertThat(r.verdict()).as(r.detail()).isEqualTo("CAUGHT");
        // the finding the report draws: every SQL step with the state read back around it, the culprit marked
        SqlFinding f = r.finding().orElseThrow();
        assertThat(f.steps()).isNotEmpty().allMatch(s -> s.before() != null && s.after() != null);
        if (r.firstFailure().violation() != null) {
            assertThat(f.title()).isEqualTo(r.firstFailure().violation().invariant().name());
            assertThat(f.culprit() < 0 || f.trace().lines().toList().get(f.culprit()).endsWith("<== " + f.title())).isTrue();
        }
        assertThat(f.replay()).isEqualTo(r.replayLine());
    }
}
