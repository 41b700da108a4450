package com.example.shop.guide;

import com.example.shop.relaycheck.ShopRelayAdapter;
import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.junit.DeliveryAttempt;
import dev.relaycheck.junit.FixtureBuilder;
import dev.relaycheck.junit.RelayFixture;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import static dev.relaycheck.junit.NegativeControls.expectCaught;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eight tests of the outbox test-authoring guide, against the shop's relay (ShopRelayAdapter, from
 * examples/shop-relay). Each guide test is a method taking the relay, run once against the shop's relay (it
 * must pass) and once against a broken relay (it must fail, naming what broke, with a replay line): the
 * shop's relay with one of the catalogue's mistakes in relaycheck's side of the world (consumer, producer),
 * or the shipped SQL relay with a mistake in its own SQL.
 */
class OutboxGuideTest {

    static FixtureBuilder shopRelay() {
        return RelayFixture.forAdapter(ShopRelayAdapter.class);
    }

    // 1. Atomicity: a crash between the service's commits leaves both the order and its event, or neither.

    static void crashAfterTheProducerCommitLeavesBothOrNeither(FixtureBuilder relay) {
        try (RelayFixture shop = relay.toProduce("ORDER-1", "SKU-1", 2).start()) {
            shop.crashAt(RelayFixture.PRODUCER, CutPoint.AFTER_PRODUCER_COMMIT).produce();
            shop.verify("the order and its event committed together", shop.businessWrites().contains("ORDER-1") == shop.hasRow("ORDER-1"));
        }
    }

    @Test
    void atomicityUnderACrash() {
        crashAfterTheProducerCommitLeavesBothOrNeither(shopRelay());
    }

    @Test
    void atomicityUnderACrashFailsForAProducerThatCommitsTwice() {
        expectCaught("PRODUCE_ATOMIC", () -> crashAfterTheProducerCommitLeavesBothOrNeither(shopRelay().withMistake("outbox-outside-transaction")));
    }

    // 2. Atomicity: when the outbox insert fails, the service's own business write rolls back with it.

    static void aFailedOutboxInsertRollsBackTheOrder(FixtureBuilder relay) {
        try (RelayFixture shop = relay.serviceTables("CREATE TABLE shop_order (order_id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64))")
                .businessWrite((c, e) -> insert(c, "INSERT INTO shop_order VALUES (?, ?)", e.id(), e.aggregate()))
                .toProduce("ORDER-1", "SKU-1", 1).toProduce("ORDER-2", "SKU-1", 1).start()) {
            shop.produce().produceFailingAtOutboxInsert();
            shop.assertNothingCommitted("ORDER-2");
            int orders = shop.onServiceDatabase(c -> count(c, "shop_order"));
            assertThat(orders).isEqualTo(1);
            shop.runUntilQuiet();
            shop.assertDelivered("ORDER-1");
        }
    }

    @Test
    void atomicityUnderAFailedInsert() {
        aFailedOutboxInsertRollsBackTheOrder(shopRelay());
    }

    @Test
    void atomicityUnderAFailedInsertFailsForAProducerThatCommitsTwice() {
        expectCaught("PRODUCE_ATOMIC", () -> aFailedOutboxInsertRollsBackTheOrder(shopRelay().withMistake("outbox-outside-transaction")));
    }

    // 3. The relay publishes PENDING events, including one whose lease ran out under a poller that died.

    static void publishesPendingEvents(FixtureBuilder relay) {
        try (RelayFixture shop = relay.pending("ORDER-1", "SKU-1", 1).leased("ORDER-2", "SKU-2", 1, "dead-worker").start()) {
            assertThat(shop.runOnce("p1")).extracting(DeliveryAttempt::eventId).containsExactly("ORDER-1");
            shop.assertPending("ORDER-2").tick(2);
            shop.runOnce("p1");
            shop.assertDelivered("ORDER-1", "ORDER-2");
        }
    }

    @Test
    void publishesPending() {
        publishesPendingEvents(shopRelay());
    }

    @Test
    void publishesPendingFailsForALeaseThatNeverRunsOut() {
        expectCaught("ORDER-2 DELIVERED", () -> publishesPendingEvents(RelayFixture.forCatalogueMistake("lease-never-expires")));
    }

    // 4. The relay skips what is published, and a row whose lease has not run out.

    static void skipsPublishedEvents(FixtureBuilder relay) {
        try (RelayFixture shop = relay.delivered("ORDER-1", "SKU-1", 1).leased("ORDER-2", "SKU-2", 1, "dead-worker")
                .pending("ORDER-3", "SKU-3", 1).start()) {
            List<DeliveryAttempt> delivered = shop.runOnce("p1");
            shop.assertPending("ORDER-2");
            assertThat(delivered).extracting(DeliveryAttempt::eventId).containsExactly("ORDER-3");
            assertThat(shop.deliveriesOf("ORDER-1")).isEmpty();
            assertThat(shop.effectsApplied("ORDER-1")).isEqualTo(1);
        }
    }

    @Test
    void skipsPublished() {
        skipsPublishedEvents(shopRelay());
    }

    @Test
    void skipsPublishedFailsForAClaimThatIgnoresLeases() {
        // the lease's owner is gone, so no two pollers hold ORDER-2 (no SINGLE_LIVE_LEASE): the lease alone must keep it
        expectCaught("ORDER-2 still PENDING", () -> skipsPublishedEvents(RelayFixture.forCatalogueMistake("claim-ignores-lease")));
    }

    // 5. The relay may publish twice (the ack was lost after the consumer committed); the effect still lands once.

    static void mayPublishTwiceButAppliesOnce(FixtureBuilder relay) {
        try (RelayFixture shop = relay.pollers("p1", "p2").pending("EVENT-61", "SKU-29", 4).stock("SKU-29", 10).start()) {
            shop.crashAt("p1", CutPoint.AFTER_CONSUMER_COMMIT).runOnce("p1");
            shop.runUntilQuiet();
            assertThat(shop.deliveriesOf("EVENT-61")).extracting(DeliveryAttempt::result)
                    .containsExactly(DeliveryAttempt.Result.APPLIED, DeliveryAttempt.Result.DUPLICATE);
            shop.assertDelivered("EVENT-61");
        }
    }

    @Test
    void mayPublishTwice() {
        mayPublishTwiceButAppliesOnce(shopRelay());
    }

    @Test
    void mayPublishTwiceFailsForAConsumerWithoutDedup() {
        expectCaught("EFFECT_AT_MOST_ONCE", () -> mayPublishTwiceButAppliesOnce(shopRelay().withMistake("no-dedup-marker")));
    }

    // 6. The consumer deduplicates by event id, not by payload: two orders with equal bodies both land.

    static void dedupsByEventId(FixtureBuilder relay) {
        try (RelayFixture shop = relay.consumerTables("CREATE TABLE reservation (event_id VARCHAR(64) PRIMARY KEY, body VARCHAR(200))")
                .consumer((c, e) -> insert(c, "INSERT INTO reservation VALUES (?, ?)", e.id(), e.payload()))
                .pending("ORDER-1", "SKU-1", 1, "{\"reserve\":1}").pending("ORDER-2", "SKU-2", 1, "{\"reserve\":1}").start()) {
            shop.drain();
            shop.assertDelivered("ORDER-1", "ORDER-2");
            int reservations = shop.onConsumerDatabase(c -> count(c, "reservation"));
            assertThat(reservations).isEqualTo(2);
        }
    }

    @Test
    void dedupById() {
        dedupsByEventId(shopRelay());
    }

    @Test
    void dedupByIdFailsForAConsumerThatDedupsByPayload() {
        expectCaught("NO_LOST_EVENT", () -> dedupsByEventId(shopRelay().withMistake("dedup-by-payload")));
    }

    // 7. Per-aggregate order: while SKU-1's first event is held by a poller that died, its second waits.

    static void keepsPerAggregateOrder(FixtureBuilder relay) {
        try (RelayFixture shop = relay.pollers("p1", "p2").pending("ORDER-1", "SKU-1", 1).pending("ORDER-2", "SKU-1", 2).start()) {
            shop.crashAt("p1", CutPoint.AFTER_CLAIM).runOnce("p1");
            shop.verify("ORDER-2 waits while ORDER-1, the head of SKU-1, is leased", shop.runOnce("p2").isEmpty());
            shop.runUntilQuiet();
            assertThat(shop.deliveries()).extracting(DeliveryAttempt::eventId).containsExactly("ORDER-1", "ORDER-2");
        }
    }

    @Test
    void perAggregateOrder() {
        keepsPerAggregateOrder(shopRelay());
    }

    @Test
    void perAggregateOrderFailsForAClaimWithoutTheHeadOfAggregateRule() {
        expectCaught("ORDER-2 waits", () -> keepsPerAggregateOrder(RelayFixture.forCatalogueMistake("no-head-of-aggregate")));
    }

    // 8. Re-publish after a crash: a poller dies holding the event; once its lease runs out another publishes it.

    static void republishesAfterACrash(FixtureBuilder relay) {
        try (RelayFixture shop = relay.pollers("p1", "p2").pending("ORDER-1", "SKU-1", 1).start()) {
            shop.crashAt("p1", CutPoint.AFTER_CLAIM).runOnce("p1");
            shop.assertPending("ORDER-1");
            shop.runUntilQuiet();
            assertThat(shop.deliveries()).singleElement().extracting(DeliveryAttempt::result).isEqualTo(DeliveryAttempt.Result.APPLIED);
            shop.assertDelivered("ORDER-1");
        }
    }

    @Test
    void republishAfterCrash() {
        republishesAfterACrash(shopRelay());
    }

    @Test
    void republishAfterCrashFailsForALeaseThatNeverRunsOut() {
        expectCaught("EVENTUAL_DELIVERY", () -> republishesAfterACrash(RelayFixture.forCatalogueMistake("lease-never-expires")));
    }

    // ------------------------------------------------------------------ the team's SQL, run inside relaycheck's transactions

    private static void insert(Connection c, String sql, String... values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setString(i + 1, values[i]);
            }
            ps.executeUpdate();
        }
    }

    private static int count(Connection c, String table) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
