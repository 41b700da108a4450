package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.adapter.ClaimRequest;
import dev.relaycheck.jdbc.adapter.ClaimedRow;
import dev.relaycheck.jdbc.adapter.OutboxSnapshot;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import dev.relaycheck.jdbc.adapter.SqlFileAdapter;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlShape;
import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Step;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An ack is credited only with what its own statements changed. In a race another poller's ack can commit between the
 * reads an ack's step makes around its UPDATE; here that commit is made to land exactly there (the relay's ack runs
 * the other poller's ack first), on a relay whose ack touches one row, as the reference relay's does.
 */
class AckAttributionTest {
    /** What the next ack runs before its own statement (then it is cleared): another poller's committed ack. */
    static volatile Runnable beforeNextAck = () -> { };

    /** The reference relay's SQL behind a team's class, with the hook above in its ack. */
    public static final class OneRowAckRelay implements RelayAdapter {
        private final RelayAdapter sql = new SqlFileAdapter(RelaySqlFile.reference());

        @Override
        public void createSchema(Connection c) throws SQLException {
            sql.createSchema(c);
        }

        @Override
        public void clear(Connection c) throws SQLException {
            sql.clear(c);
        }

        @Override
        public void enqueue(Connection c, Event e) throws SQLException {
            sql.enqueue(c, e);
        }

        @Override
        public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
            return sql.claim(c, r);
        }

        @Override
        public boolean ack(Connection c, String eventId, long token, int now, String poller) throws SQLException {
            Runnable first = beforeNextAck;
            beforeNextAck = () -> { };
            first.run();
            return sql.ack(c, eventId, token, now, poller);
        }

        @Override
        public boolean release(Connection c, String eventId, long token, int now, String poller) throws SQLException {
            return sql.release(c, eventId, token, now, poller);
        }

        @Override
        public OutboxSnapshot snapshot(Connection c) throws SQLException {
            return sql.snapshot(c);
        }
    }

    @Test
    void anotherPollersCommitBetweenAnAcksReadsIsNotCreditedToIt() throws SQLException {
        RelayUnderTest relay = new RelayUnderTest(new RelaySpec.AdapterClass(OneRowAckRelay.class.getName(), null),
                OneRowAckRelay.class.getName(), true, SqlShape.CORRECT, OneRowAckRelay::new);
        // three aggregates: p2's claim of two rows takes E1 and E5, p1's then takes E6
        Scenario scenario = Scenario.builder("attribution").pollers("p1", "p2").batch(2).stock("SKU-1", 10).stock("SKU-5", 10)
                .stock("SKU-6", 10).event("E1", "SKU-1", 1).event("E5", "SKU-5", 1).event("E6", "SKU-6", 1).build();
        DbTarget h2 = DbTarget.h2();
        Databases dbs = h2.acquire(false);
        try {
            Schema.create(dbs, relay.newAdapter());
            try (SqlWorld world = new SqlWorld(relay, scenario, dbs)) {
                world.reset();
                assertThat(world.apply(Step.parse("Claim(p2)")).outcome().toString()).isEqualTo("CLAIMED [E1/t1, E5/t2]");
                assertThat(world.apply(Step.parse("Claim(p1)")).outcome().toString()).isEqualTo("CLAIMED [E6/t3]");
                world.apply(Step.parse("Deliver(p1,E6,t3)"));
                world.apply(Step.parse("Deliver(p2,E1,t1)"));
                Action[] other = new Action[1];
                beforeNextAck = () -> other[0] = world.poller("p1").runNext(world.clock()); // p1's ack of E6 commits here
                Action ack = world.apply(Step.parse("Ack(p2,E1,t1)"));
                assertThat(other[0].outcome()).isEqualTo(new Outcome.Acked("E6", 3));
                // the ack's own UPDATE touched E1 alone: E6's DELIVERED is p1's commit, never this step's
                assertThat(ack.outcome()).isEqualTo(new Outcome.Acked("E1", 1));
                assertThat(ack.outcome().toString()).doesNotContain("also marked");
            }
        } finally {
            h2.release(dbs);
        }
    }
}
