package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.race.RaceConfig;
import dev.relaycheck.jdbc.race.RaceHarness;
import dev.relaycheck.jdbc.race.RaceResult;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.SplitMix64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real threads over H2. Races per configuration from -Drelaycheck.race.rounds (default 2); a broken
 * variant gets up to 5 races to be caught.
 */
class RaceTest {
    static final int ROUNDS = Integer.getInteger("relaycheck.race.rounds", 2);

    static Stream<Arguments> correctConfigurations() {
        return Stream.of(Arguments.of("SKIP LOCKED claim, two databases", RaceConfig.defaults(RelayUnderTest.of(SqlVariant.CORRECT), DbTarget.h2(), 0)),
                Arguments.of("conditional-update claim", RaceConfig.defaults(RelayUnderTest.of(SqlVariant.CORRECT, ClaimForm.CONDITIONAL_UPDATE), DbTarget.h2(), 0)),
                Arguments.of("one shared database", RaceConfig.defaults(RelayUnderTest.of(SqlVariant.CORRECT), DbTarget.h2(), 0).withSharedDatabase(true)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("correctConfigurations")
    void correctRelaySurvivesRacingPollers(String name, RaceConfig base) throws SQLException, InterruptedException {
        List<RaceResult> runs = new ArrayList<>();
        for (int i = 0; i < ROUNDS; i++) {
            RaceResult r = RaceHarness.run(base.withSeed(SplitMix64.derive(7, i)), DbTarget.h2());
            System.out.println(r.summary());
            assertThat(r.violations()).as(r.summary()).isEmpty();
            assertThat(r.errors()).as(r.summary()).isZero();
            assertThat(r.delivered()).isEqualTo(base.events());
            runs.add(r);
        }
        // not vacuous: leases really expired under stalled owners, duplicates and stale tokens really happened
        assertThat(runs.stream().mapToInt(RaceResult::reclaims).sum()).isPositive();
        assertThat(runs.stream().mapToInt(RaceResult::duplicates).sum()).isPositive();
        assertThat(runs.stream().mapToInt(RaceResult::staleRejected).sum()).isPositive();
        assertThat(runs.stream().mapToInt(RaceResult::lostAcks).sum()).isPositive();
        assertThat(runs.stream().mapToInt(RaceResult::rollbacks).sum()).isPositive();
    }

    @org.junit.jupiter.api.Test
    void aRacePastItsDeadlineIsFinishedWithoutFaultsNotAnEventualDeliveryViolation() throws SQLException, InterruptedException {
        // a real race with a deadline no race meets: what a loaded machine does to the real 60 s one
        RaceConfig tiny = RaceConfig.defaults(RelayUnderTest.of(SqlVariant.CORRECT), DbTarget.h2(), SplitMix64.derive(7, 0))
                .withDeadlineMillis(1);
        RaceResult r = RaceHarness.run(tiny, DbTarget.h2());
        System.out.println(r.summary());
        assertThat(r.healingSteps()).as(r.summary()).isPositive();
        assertThat(r.violations()).as(r.summary()).isEmpty();
        assertThat(r.delivered()).isEqualTo(tiny.events());
        assertThat(r.summary()).contains("past the deadline: finished by ");
    }

    static Stream<Arguments> raceControls() {
        return Stream.of(Arguments.of(SqlVariant.CHECK_THEN_ACT_CLAIM, Invariant.SINGLE_LIVE_LEASE),
                Arguments.of(SqlVariant.CLAIM_IGNORES_LEASE, Invariant.SINGLE_LIVE_LEASE),
                Arguments.of(SqlVariant.ACK_IGNORES_TOKEN, Invariant.STALE_ACK_REJECTED),
                Arguments.of(SqlVariant.NO_DEDUP_MARKER, Invariant.EFFECT_AT_MOST_ONCE),
                Arguments.of(SqlVariant.NO_HEAD_OF_AGGREGATE, Invariant.AGGREGATE_ORDER));
    }

    @ParameterizedTest(name = "{0} breaks {1}")
    @MethodSource("raceControls")
    void brokenRelayIsCaughtByTheRace(SqlVariant variant, Invariant expected) throws SQLException, InterruptedException {
        RaceResult caught = null;
        for (int i = 0; i < 5 && caught == null; i++) {
            RaceResult r = RaceHarness.run(RaceConfig.defaults(RelayUnderTest.of(variant), DbTarget.h2(), SplitMix64.derive(7, i)), DbTarget.h2());
            if (!r.clean()) {
                caught = r;
            }
        }
        assertThat(caught).as(variant.id() + " escaped 5 races").isNotNull();
        System.out.println(caught.summary());
        assertThat(caught.violations()).extracting(v -> v.invariant()).contains(expected);
        // the finding the report draws: the steps that touched the events the violation names, then the end state
        SqlFinding f = caught.finding(DbTarget.h2()).orElseThrow();
        assertThat(f.title()).isEqualTo(caught.violations().get(0).invariant().name());
        assertThat(f.steps()).hasSizeGreaterThan(1).hasSizeLessThanOrEqualTo(caught.log().size() + 1);
        assertThat(f.steps().get(f.steps().size() - 1).after()).isEqualTo(caught.end());
        assertThat(f.how()).contains("race seed " + caught.config().seed());
        assertThat(f.replay()).contains("--race-seed " + caught.config().seed());
        // every invariant broken is named with how often and its first violation, and drawn
        List<Invariant> broken = caught.violations().stream().map(v -> v.invariant()).distinct().toList();
        for (Invariant i : broken) {
            dev.relaycheck.model.Violation first = caught.violations().stream().filter(v -> v.invariant() == i).findFirst().orElseThrow();
            long times = caught.violations().stream().filter(v -> v.invariant() == i).count();
            assertThat(caught.summary()).contains(i + " x" + times + " (first: " + first.detail() + ")");
        }
        assertThat(caught.summary()).contains(caught.violations().size() + " violation");
        assertThat(caught.findings(DbTarget.h2())).extracting(SqlFinding::title)
                .containsExactlyElementsOf(broken.stream().map(Enum::name).toList());
    }
}
