package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceCheck.VariantResult;
import dev.relaycheck.jdbc.conformance.ScheduleConformance;
import dev.relaycheck.jdbc.conformance.ScheduleResult;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RandomSchedules;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs of the lease, settle and timing hazards on a real database: a hand-written interleaving, or seeded walks of one scenario. */
final class SqlHazardRuns {
    private SqlHazardRuns() {
    }

    /** What a hand-written interleaving did: the invariants each step broke (in order), the outcomes, the end state. */
    record Run(List<Invariant> broke, List<Outcome> outcomes, RelayState end) {
        Outcome last() {
            return outcomes.get(outcomes.size() - 1);
        }
    }

    /** Applies {@code steps} to {@code variant} on {@code db}, judging every transition by the model's invariants. */
    static Run byHand(SqlVariant variant, DbTarget db, Scenario scenario, String... steps) throws SQLException {
        Databases dbs = db.acquire(false);
        List<Invariant> broke = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        try {
            Schema.create(dbs, RelayUnderTest.of(variant).newAdapter());
            try (SqlWorld relay = new SqlWorld(RelayUnderTest.of(variant), scenario, dbs)) {
                relay.reset();
                RelayState before = relay.snapshot();
                for (String s : steps) {
                    Action a = relay.apply(Step.parse(s));
                    assertThat(a).as("the SQL relay could not take " + s).isNotNull();
                    outcomes.add(a.outcome());
                    RelayState after = relay.snapshot();
                    for (Violation v : Invariants.check(relay.scenario(), before, a.step(), new StepResult(after, a.outcome()))) {
                        broke.add(v.invariant());
                    }
                    before = after;
                }
                return new Run(broke, outcomes, relay.snapshot());
            }
        } finally {
            db.release(dbs);
        }
    }

    /** The reference relay on {@code seeds} seeded walks of {@code scenario}: every schedule conforms; the witnesses reached. */
    static Set<Witness> referenceConforms(DbTarget db, Scenario scenario, int seeds) throws SQLException {
        RelayUnderTest correct = RelayUnderTest.of(SqlVariant.CORRECT);
        RelayModel model = new RelayModel(correct.traits().modelLogic(), scenario);
        Databases dbs = db.acquire(false);
        Set<Witness> reached = EnumSet.noneOf(Witness.class);
        try {
            Schema.create(dbs, correct.newAdapter());
            try (SqlWorld relay = new SqlWorld(correct, scenario, dbs)) {
                for (int i = 0; i < seeds; i++) {
                    long seed = SplitMix64.derive(1, i);
                    ScheduleResult r = new ScheduleConformance(relay, model, ScheduleConformance.Trace.NONE)
                            .run(seed, RandomSchedules.walk(model, seed, ConformanceCheck.SCHEDULE_LENGTH));
                    assertThat(r.clean()).as(r.summary()).isTrue();
                    reached.addAll(r.witnesses());
                }
            }
        } finally {
            db.release(dbs);
        }
        return reached;
    }

    /** The conformance check on {@code variant}, its exposing scenario first: caught, naming {@code expected} there. */
    static void caughtByConformance(SqlVariant variant, DbTarget db, Invariant expected) throws SQLException {
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(variant), db, 1, SqlChecks.CONTROL_SEEDS, variant.exposingScenario(),
                variant.exposingSeeds(), null);
        assertThat(r.verdict()).as(r.detail()).isEqualTo("CAUGHT");
        assertThat(r.firstFailure().violation()).as(r.detail()).isNotNull();
        assertThat(r.firstFailure().violation().invariant()).as(r.detail()).isEqualTo(expected);
        assertThat(r.firstFailure().scenario()).isEqualTo(variant.exposingScenario());
    }
}
