package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ConformanceCheck.VariantResult;
import dev.relaycheck.jdbc.conformance.ScheduleConformance;
import dev.relaycheck.jdbc.conformance.ScheduleResult;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RandomSchedules;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;
import dev.relaycheck.model.Witness;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20's commit visibility on real databases: overlapping producer transactions (E1 takes seq 1, E2 takes seq 2
 * and commits first) against the reference relay (claims by status) and the cursor-by-sequence relay file
 * (claim-select {@code AND o.seq > :cursor}), on H2 and on PostgreSQL. The uncommitted row is really invisible to
 * the claim, so the cursor really passes it.
 */
class CommitVisibilitySqlTest {
    static final String[] WATERMARK_SKIP = {"Begin(E1)", "Begin(E2)", "Commit(E2)", "Claim(p1)", "Commit(E1)"};

    /** What the hand-written interleaving did: the invariants broken and what a fresh claim found afterwards. */
    record Run(List<Invariant> broke, Outcome laterClaim, RelayState end) {
    }

    static Run watermarkSkip(SqlVariant variant, DbTarget db) throws SQLException {
        Databases dbs = db.acquire(false);
        List<Invariant> broke = new ArrayList<>();
        try {
            dbs.createSchema(RelayUnderTest.of(variant).newAdapter());
            try (SqlRelay relay = new SqlRelay(RelayUnderTest.of(variant), ReferenceScenarios.commitVisibility(), dbs)) {
                relay.reset();
                RelayState before = relay.snapshot();
                for (String s : WATERMARK_SKIP) {
                    Action a = relay.apply(Step.parse(s));
                    assertThat(a.step()).hasToString(s);
                    RelayState after = relay.snapshot();
                    for (Violation v : Invariants.check(relay.scenario(), before, a.step(), new StepResult(after, a.outcome()))) {
                        broke.add(v.invariant());
                    }
                    before = after;
                }
                Outcome later = relay.apply(new Step.Claim("p2")).outcome(); // the other poller, after E1 committed
                return new Run(broke, later, relay.snapshot());
            }
        } finally {
            db.release(dbs);
        }
    }

    /** The correct relay on {@code seeds} seeded walks of commit-visibility: every schedule conforms, LATE_COMMIT reached. */
    static Set<Witness> correctConformsOnCommitVisibility(DbTarget db, int seeds) throws SQLException {
        Scenario sc = ReferenceScenarios.commitVisibility();
        RelayUnderTest correct = RelayUnderTest.of(SqlVariant.CORRECT);
        RelayModel model = new RelayModel(correct.traits().modelLogic(), sc);
        Databases dbs = db.acquire(false);
        Set<Witness> reached = EnumSet.noneOf(Witness.class);
        try {
            dbs.createSchema(correct.newAdapter());
            try (SqlRelay relay = new SqlRelay(correct, sc, dbs)) {
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

    static void cursorRelaySkipsTheLateRow(DbTarget db) throws SQLException {
        Run cursor = watermarkSkip(SqlVariant.CURSOR_BY_SEQUENCE, db);
        assertThat(cursor.broke()).containsExactly(Invariant.NO_LOST_EVENT);
        // not bookkeeping alone: E1 is committed and PENDING with no lease, and the relay's claim does not return it
        assertThat(cursor.end().row("E1").orElseThrow().status()).isEqualTo(RowStatus.PENDING);
        assertThat(cursor.end().row("E1").orElseThrow().hasLease()).isFalse();
        assertThat(cursor.laterClaim()).isEqualTo(new Outcome.Claimed(List.of()));

        Run reference = watermarkSkip(SqlVariant.CORRECT, db);
        assertThat(reference.broke()).isEmpty();
        assertThat(reference.laterClaim()).isInstanceOfSatisfying(Outcome.Claimed.class,
                c -> assertThat(c.grants()).extracting(Outcome.Grant::eventId).containsExactly("E1"));
    }

    static void cursorVariantIsCaughtByConformance(DbTarget db) throws SQLException {
        VariantResult r = ConformanceCheck.run(RelayUnderTest.of(SqlVariant.CURSOR_BY_SEQUENCE), db, 1, 20,
                SqlVariant.CURSOR_BY_SEQUENCE.exposingScenario(), null);
        assertThat(r.verdict()).as(r.detail()).isEqualTo("CAUGHT");
        assertThat(r.firstFailure().violation()).as(r.detail()).isNotNull();
        assertThat(r.firstFailure().violation().invariant()).as(r.detail()).isEqualTo(Invariant.NO_LOST_EVENT);
        assertThat(r.firstFailure().scenario()).isEqualTo("commit-visibility");
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
        assertThat(correctConformsOnCommitVisibility(DbTarget.h2(), 12)).contains(Witness.LATE_COMMIT);
        cursorVariantIsCaughtByConformance(DbTarget.h2());
    }

    @Test
    void onPostgresTheReferenceConformsWithOverlappingProducersAndTheCursorVariantIsCaught() throws SQLException {
        PostgresTarget pg = PostgresForTests.target();
        assertThat(correctConformsOnCommitVisibility(pg, 6)).contains(Witness.LATE_COMMIT);
        cursorVariantIsCaughtByConformance(pg);
    }
}
