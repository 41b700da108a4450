package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.Violation;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hand-written interleavings of broken SQL, judged by the model's invariants on states rebuilt from the
 * tables, with the correct SQL on the same interleaving as the control.
 */
class BrokenSqlByHandTest {

    /** Runs the steps, checking every transition; returns the invariants the SQL side broke. */
    static List<Invariant> run(SqlVariant variant, String... steps) throws SQLException {
        Databases dbs = Databases.separateInMemory();
        Schema.create(dbs, RelayUnderTest.of(SqlVariant.CORRECT).newAdapter());
        List<Invariant> broke = new ArrayList<>();
        try (SqlWorld relay = new SqlWorld(RelayUnderTest.of(variant), ReferenceScenarios.doubleClaim(), dbs)) {
            relay.reset();
            RelayState before = relay.snapshot();
            for (String s : steps) {
                Action a = relay.apply(Step.parse(s));
                RelayState after = relay.snapshot();
                for (Violation v : Invariants.check(relay.scenario(), before, a.step(), new StepResult(after, a.outcome()))) {
                    broke.add(v.invariant());
                }
                before = after;
            }
        } finally {
            dbs.shutdown();
        }
        return broke;
    }

    @Test
    void checkThenActClaimGivesOneRowTwoLiveOwners() throws SQLException {
        // p1 reads, p2 reads, p1 writes, p2 writes: both saw E1 free, p2 overwrites p1's live lease
        String[] interleaving = {"Claim(p1)", "Claim(p2)", "Claim(p1)", "Claim(p2)"};
        assertThat(run(SqlVariant.CHECK_THEN_ACT_CLAIM, interleaving)).containsExactly(Invariant.SINGLE_LIVE_LEASE);
        assertThat(run(SqlVariant.CORRECT, interleaving)).isEmpty();
    }

    @Test
    void unfencedAckOfAStalledOwnerMarksTheSuccessorsRowDelivered() throws SQLException {
        String[] interleaving = {"Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick", "Claim(p2)", "Ack(p1,E1,t1)"};
        assertThat(run(SqlVariant.ACK_IGNORES_TOKEN, interleaving)).containsExactly(Invariant.STALE_ACK_REJECTED);
        assertThat(run(SqlVariant.CORRECT, interleaving)).isEmpty();
    }

    @Test
    void correctClaimIssuesStrictlyIncreasingTokensAcrossRows() throws SQLException {
        Databases dbs = Databases.separateInMemory();
        Schema.create(dbs, RelayUnderTest.of(SqlVariant.CORRECT).newAdapter());
        try (SqlWorld relay = new SqlWorld(RelayUnderTest.of(SqlVariant.CORRECT), ReferenceScenarios.crashRestart(), dbs)) {
            relay.reset();
            Outcome claimed = relay.apply(Step.parse("Claim(p1)")).outcome();
            assertThat(claimed).isEqualTo(new Outcome.Claimed(List.of(new Outcome.Grant("E1", 1, 2, false),
                    new Outcome.Grant("E2", 2, 2, false))));
            assertThat(relay.snapshot().lastToken()).isEqualTo(2);
        } finally {
            dbs.shutdown();
        }
    }
}
