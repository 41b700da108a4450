package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.world.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.relaycheck.jdbc.Event61OnH2Test.query;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What H2 2.5.252 does with the statements the relay relies on. If an H2 upgrade changes one of these,
 * this test says which, before the relay's checks start failing for reasons that look like relay bugs.
 */
class H2BehaviourTest {
    private Databases dbs;
    private Connection a;
    private Connection b;

    @BeforeEach
    void open() throws SQLException {
        dbs = Databases.sharedInMemory();
        Schema.create(dbs, RelayUnderTest.of(SqlVariant.CORRECT).newAdapter());
        a = dbs.openOutbox();
        b = dbs.openOutbox();
        try (Statement st = a.createStatement()) {
            st.execute("INSERT INTO outbox (event_id, aggregate_id, seq, quantity, payload, status) VALUES "
                    + "('E1','A',1,1,'x','PENDING'), ('E2','B',2,1,'x','PENDING'), ('E3','C',3,1,'x','PENDING')");
        }
        a.commit();
    }

    @AfterEach
    void close() throws SQLException {
        a.close();
        b.close();
        dbs.shutdown();
    }

    @Test
    void skipLockedSkipsALockedRowAndStillFillsTheLimit() throws SQLException {
        assertThat(query(a, "SELECT event_id FROM outbox WHERE event_id = 'E1' FOR UPDATE SKIP LOCKED")).containsExactly("E1");
        assertThat(query(b, "SELECT event_id FROM outbox WHERE status = 'PENDING' ORDER BY seq FETCH FIRST 1 ROWS ONLY FOR UPDATE SKIP LOCKED"))
                .containsExactly("E2");
    }

    @Test
    void selectForUpdateWithALimitLocksEveryMatchingRowNotOnlyTheOnesReturned() throws SQLException {
        assertThat(query(a, "SELECT event_id FROM outbox WHERE status = 'PENDING' ORDER BY seq FETCH FIRST 1 ROWS ONLY FOR UPDATE SKIP LOCKED"))
                .containsExactly("E1");
        // PostgreSQL would lock E1 only; H2 locked E2 and E3 too, so a concurrent claimer finds nothing
        assertThat(query(b, "SELECT event_id FROM outbox WHERE status = 'PENDING' ORDER BY seq FOR UPDATE SKIP LOCKED")).isEmpty();
        a.rollback();
        assertThat(query(b, "SELECT event_id FROM outbox WHERE status = 'PENDING' ORDER BY seq FOR UPDATE SKIP LOCKED"))
                .containsExactly("E1", "E2", "E3");
    }

    @Test
    void conditionalUpdateWaitsThenRechecksItsWhereClause() throws Exception {
        try (Statement st = a.createStatement()) {
            assertThat(st.executeUpdate("UPDATE outbox SET lease_token = 1, lease_expiry = 5 WHERE event_id = 'E1' AND lease_token IS NULL")).isOne();
        }
        CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> {
            try (Statement st = b.createStatement()) {
                return st.executeUpdate("UPDATE outbox SET lease_token = 2, lease_expiry = 5 WHERE event_id = 'E1' AND lease_token IS NULL");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(200);
        assertThat(second).isNotDone(); // blocked on the row lock
        a.commit();
        assertThat(second.get(10, TimeUnit.SECONDS)).isZero(); // re-checked after the commit: no lost update
    }

    @Test
    void aLockWaitPastItsLimitIsTimeBasedAndNotTheRelaysError() throws SQLException {
        try (Statement st = a.createStatement()) {
            st.executeUpdate("UPDATE outbox SET lease_token = 1 WHERE event_id = 'E1'"); // holds E1's row lock
        }
        try (Statement st = b.createStatement()) {
            st.execute("SET LOCK_TIMEOUT 1"); // a limit no wait meets: what a loaded machine does to the real 10 s
            SQLException timedOut = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> st.executeUpdate("UPDATE outbox SET lease_token = 2 WHERE event_id = 'E1'"));
            RelaySqlException e = new RelaySqlException("ack", timedOut);
            assertThat(e.lockWaitTimedOut()).as(e.getMessage()).isTrue();
            assertThat(e.sessionEndedByDatabase()).isFalse();
        }
        b.rollback();
        try (Statement st = b.createStatement()) { // a real SQL error is not a lock wait: it stays the relay's error
            SQLException bad = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> st.executeUpdate("UPDATE outbox SET no_such_column = 1"));
            assertThat(new RelaySqlException("ack", bad).lockWaitTimedOut()).isFalse();
        }
    }

    @Test
    void duplicateMarkerInsertWaitsForTheFirstTransactionThenDecides() throws Exception {
        Connection c1 = dbs.openConsumer();
        Connection c2 = dbs.openConsumer();
        try {
            insertMarker(c1);
            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> {
                try {
                    insertMarker(c2);
                    return "inserted";
                } catch (SQLException e) {
                    return e.getSQLState();
                }
            });
            Thread.sleep(200);
            assertThat(second).isNotDone();
            c1.rollback(); // the first delivery failed: the second must apply, not answer DUPLICATE
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("inserted");
            c2.commit();
            CompletableFuture<String> third = CompletableFuture.supplyAsync(() -> {
                try {
                    insertMarker(c1);
                    return "inserted";
                } catch (SQLException e) {
                    return e.getSQLState();
                }
            });
            assertThat(third.get(10, TimeUnit.SECONDS)).isEqualTo("23505"); // committed marker: duplicate key
        } finally {
            c1.close();
            c2.close();
        }
    }

    private static void insertMarker(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO applied_event (marker_key, event_id) VALUES ('E1', 'E1')");
        }
    }
}
