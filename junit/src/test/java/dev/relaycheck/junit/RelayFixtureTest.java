package dev.relaycheck.junit;

import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.model.RowStatus;
import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fixture on the reference SQL relay, and on catalogue mistakes that each test must catch. */
class RelayFixtureTest {

    @Test
    void runOnceClaimsDeliversAndAcknowledgesOneBatch() {
        try (RelayFixture relay = RelayFixture.forReference().pending("E1", "SKU-1", 2).pending("E2", "SKU-2", 1).start()) {
            assertThat(relay.runOnce("p1")).extracting(DeliveryAttempt::eventId, DeliveryAttempt::result)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("E1", DeliveryAttempt.Result.APPLIED));
            relay.assertDelivered("E1").assertPending("E2");
            assertThat(relay.drain()).extracting(DeliveryAttempt::eventId).containsExactly("E2");
            relay.assertDelivered("E1", "E2");
        }
    }

    @Test
    void seededRowsStartDeliveredOrLeasedAndALeaseRunsOut() {
        try (RelayFixture relay = RelayFixture.forReference().pollers("p1", "p2")
                .delivered("E1", "SKU-1", 2).leased("E2", "SKU-2", 1, "crashed").pending("E3", "SKU-3", 1).start()) {
            assertThat(relay.row("E1").status()).isEqualTo(RowStatus.DELIVERED);
            assertThat(relay.row("E2").lease().owner()).isEqualTo("crashed");
            assertThat(relay.drain()).extracting(DeliveryAttempt::eventId).containsExactly("E3");
            relay.assertPending("E2");
            assertThat(relay.runUntilQuiet()).extracting(DeliveryAttempt::eventId).containsExactly("E2");
            relay.assertDelivered("E1", "E2", "E3");
            assertThat(relay.effectsApplied("E1")).isEqualTo(1);
        }
    }

    /**
     * A row leased to one of the fixture's pollers is held by it (a live poller, not yet delivered); taking it from
     * under that poller is two owners of one row. Leased to a poller that is gone, taking it leaves one owner.
     */
    @Test
    void aLiveOwnerHoldsItsRowAndAClaimThatTakesItFromUnderItIsCaught() {
        assertThatThrownBy(() -> {
            try (RelayFixture relay = RelayFixture.forCatalogueMistake("claim-ignores-lease").pollers("p1", "p2")
                    .leased("E1", "SKU-1", 1, "p2").start()) {
                relay.runOnce("p1");
            }
        }).hasMessageContaining("VIOLATION SINGLE_LIVE_LEASE")
                .hasMessageContaining("p1's claim of E1 at t=0 replaced the live lease p2/t1/exp2 that p2 still holds");
        try (RelayFixture relay = RelayFixture.forCatalogueMistake("claim-ignores-lease").pollers("p1", "p2")
                .leased("E1", "SKU-1", 1, "crashed").start()) {
            assertThat(relay.runOnce("p1")).extracting(DeliveryAttempt::eventId).containsExactly("E1");
            assertThat(relay.trace()).contains("E1 LEASED to crashed (gone)");
        }
        try (RelayFixture relay = RelayFixture.forReference().pollers("p1", "p2").leased("E1", "SKU-1", 1, "p2").start()) {
            assertThat(relay.trace()).contains("E1 LEASED to p2 (which holds it, not yet delivered)");
            assertThat(relay.runOnce("p1")).isEmpty();
            assertThat(relay.runUntilQuiet()).extracting(DeliveryAttempt::eventId).containsExactly("E1");
            relay.assertDelivered("E1");
        }
    }

    @Test
    void aCrashAfterTheConsumerCommitIsRedeliveredAndAbsorbed() {
        try (RelayFixture relay = RelayFixture.forReference().pollers("p1", "p2").pending("E1", "SKU-1", 4).start()) {
            relay.crashAt("p1", CutPoint.AFTER_CONSUMER_COMMIT);
            relay.runOnce("p1");
            relay.assertPending("E1");
            relay.runUntilQuiet();
            assertThat(relay.deliveriesOf("E1")).extracting(DeliveryAttempt::result)
                    .containsExactly(DeliveryAttempt.Result.APPLIED, DeliveryAttempt.Result.DUPLICATE);
            relay.assertDelivered("E1");
        }
    }

    @Test
    void aConsumerWithoutDedupFailsWithTheTraceAndTheReplayLine() {
        assertThatThrownBy(() -> {
            try (RelayFixture relay = RelayFixture.forReference().withMistake("no-dedup-marker").pending("E1", "SKU-1", 4).start()) {
                relay.crashAt("p1", CutPoint.AFTER_CONSUMER_COMMIT);
                relay.runOnce("p1");
                relay.runUntilQuiet();
            }
        }).hasMessageContaining("VIOLATION EFFECT_AT_MOST_ONCE with relay correct with no-dedup-marker")
                .hasMessageContaining("Crash(p1)")
                .hasMessageContaining("replay: mvn test -Dtest=RelayFixtureTest#aConsumerWithoutDedupFailsWithTheTraceAndTheReplayLine")
                .hasMessageContaining("report: target/relaycheck/fixture/RelayFixtureTest.aConsumerWithoutDedupFailsWithTheTraceAndTheReplayLine.txt");
    }

    @Test
    void theTeamsBusinessWriteAndHandlerRunInsideRelaychecksTransactions() {
        try (RelayFixture relay = RelayFixture.forReference()
                .serviceTables("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY, note VARCHAR(100))")
                .consumerTables("CREATE TABLE shipments (event_id VARCHAR(64) PRIMARY KEY, body VARCHAR(100))")
                .businessWrite((c, e) -> {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?)")) {
                        ps.setString(1, e.id());
                        ps.setString(2, "order " + e.id());
                        ps.executeUpdate();
                    }
                })
                .consumer((c, e) -> {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO shipments VALUES (?, ?)")) {
                        ps.setString(1, e.id());
                        ps.setString(2, e.payload());
                        ps.executeUpdate();
                    }
                })
                .toProduce("E1", "SKU-1", 1, "{\"ship\":1}").toProduce("E2", "SKU-1", 1).start()) {
            relay.produce().produceFailingAtOutboxInsert();
            relay.assertNothingCommitted("E2");
            int orders = relay.onServiceDatabase(c -> count(c, "orders"));
            assertThat(orders).isEqualTo(1);
            relay.failNextDelivery("p1");
            assertThat(relay.runOnce("p1")).extracting(DeliveryAttempt::result).containsExactly(DeliveryAttempt.Result.ROLLED_BACK);
            int shipments = relay.onConsumerDatabase(c -> count(c, "shipments"));
            assertThat(shipments).isZero();
            relay.runUntilQuiet();
            String body = relay.onConsumerDatabase(c -> {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT body FROM shipments WHERE event_id = 'E1'")) {
                    rs.next();
                    return rs.getString(1);
                }
            });
            assertThat(body).isEqualTo("{\"ship\":1}");
        }
    }

    @Test
    void aSplitProducerCrashingBetweenItsCommitsBreaksAtomicity() {
        assertThatThrownBy(() -> {
            try (RelayFixture relay = RelayFixture.forReference().withMistake("outbox-outside-transaction")
                    .toProduce("E1", "SKU-1", 1).start()) {
                relay.crashAt(RelayFixture.PRODUCER, CutPoint.AFTER_PRODUCER_COMMIT).produce();
            }
        }).hasMessageContaining("VIOLATION PRODUCE_ATOMIC");
    }

    @Test
    void aLeaseThatNeverRunsOutIsNotQuiet() {
        assertThatThrownBy(() -> {
            try (RelayFixture relay = RelayFixture.forCatalogueMistake("lease-never-expires").pollers("p1", "p2")
                    .leased("E1", "SKU-1", 1, "crashed").start()) {
                relay.runUntilQuiet();
            }
        }).hasMessageContaining("VIOLATION EVENTUAL_DELIVERY").hasMessageContaining("E1 is still PENDING");
    }

    @Test
    void aSplitConsumersTwoTransactionsAreOneDeliveryAttempt() {
        try (RelayFixture relay = RelayFixture.forReference().withMistake("marker-before-effect").withoutInvariantChecks()
                .pollers("p1", "p2").pending("E1", "SKU-1", 1).pending("E2", "SKU-2", 1).start()) {
            relay.drain();
            assertThat(relay.deliveries()).extracting(DeliveryAttempt::eventId, DeliveryAttempt::result).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("E1", DeliveryAttempt.Result.APPLIED),
                    org.assertj.core.groups.Tuple.tuple("E2", DeliveryAttempt.Result.APPLIED));
            assertThat(relay.trace()).contains("HALF_APPLIED E1");
        }
        try (RelayFixture relay = RelayFixture.forReference().withMistake("marker-before-effect").withoutInvariantChecks()
                .pollers("p1", "p2").pending("E1", "SKU-1", 1).start()) {
            relay.crashAt("p1", CutPoint.AFTER_CONSUMER_COMMIT).runOnce("p1");
            assertThat(relay.deliveries()).extracting(DeliveryAttempt::result).containsExactly(DeliveryAttempt.Result.INTERRUPTED);
            assertThat(relay.effectsApplied("E1")).isZero();
        }
    }

    @Test
    void aSplitConsumerIsCaughtBetweenItsCommits() {
        assertThatThrownBy(() -> {
            try (RelayFixture relay = RelayFixture.forReference().withMistake("marker-before-effect").pending("E1", "SKU-1", 1).start()) {
                relay.runOnce("p1");
            }
        }).hasMessageContaining("VIOLATION MARKER_IFF_EFFECT");
    }

    @Test
    void aLostAckLeavesTheRowLeasedUntilItRunsOutThenTheRedeliveryIsADuplicate() {
        try (RelayFixture relay = RelayFixture.forReference().pending("E1", "SKU-1", 1).start()) {
            relay.loseNextAck("p1").runOnce("p1");
            assertThat(relay.row("E1").hasLease()).isTrue();
            assertThat(relay.runOnce("p1")).isEmpty();
            relay.tick(2).runOnce("p1");
            assertThat(relay.deliveriesOf("E1")).extracting(DeliveryAttempt::result, DeliveryAttempt::token)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(DeliveryAttempt.Result.APPLIED, 1L),
                            org.assertj.core.groups.Tuple.tuple(DeliveryAttempt.Result.DUPLICATE, 2L));
            relay.assertDelivered("E1");
        }
    }

    @Test
    void theSameStepsGiveTheSameTraceByteForByte() {
        String first = crashAndHeal();
        assertThat(crashAndHeal()).isEqualTo(first).contains("Crash(p1)");
    }

    private static String crashAndHeal() {
        try (RelayFixture relay = RelayFixture.forReference().pollers("p1", "p2").batch(2)
                .pending("E1", "SKU-1", 1).pending("E2", "SKU-1", 2).pending("E3", "SKU-2", 3).start()) {
            relay.crashAt("p1", CutPoint.AFTER_ACK).runOnce("p1");
            relay.runUntilQuiet();
            return relay.trace() + relay.deliveries();
        }
    }

    @Test
    void aCheckThenActRelayIsSeededThroughItsTwoClaimTransactions() {
        try (RelayFixture relay = RelayFixture.forCatalogueMistake("check-then-act-claim")
                .delivered("E1", "SKU-1", 1).pending("E2", "SKU-1", 1).start()) {
            assertThat(relay.runOnce("p1")).extracting(DeliveryAttempt::eventId).containsExactly("E2");
            relay.assertDelivered("E1", "E2");
        }
    }

    @Test
    void badUseIsOneClearMessage() {
        assertThatThrownBy(() -> RelayFixture.forReference().withMistake("ack-ignores-token"))
                .hasMessageContaining("RelayFixture.forCatalogueMistake(\"ack-ignores-token\")");
        try (RelayFixture relay = RelayFixture.forReference().pending("E1", "SKU-1", 1).start()) {
            assertThatThrownBy(() -> relay.runOnce("p9")).hasMessage("no poller 'p9' in this fixture: [p1]");
            assertThatThrownBy(() -> relay.crashAt("p1", CutPoint.AFTER_PRODUCER_COMMIT)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(relay::produce).hasMessageContaining("no event left to produce");
        }
    }

    private static int count(java.sql.Connection c, String table) throws java.sql.SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
