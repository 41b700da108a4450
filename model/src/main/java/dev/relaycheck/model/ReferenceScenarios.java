package dev.relaycheck.model;

import java.util.List;
import java.util.Optional;

/**
 * The named scenarios relaycheck ships. Each is small enough to search exhaustively (except {@code soak})
 * and shaped to expose at least one hazard; together they expose every catalogue variant.
 */
public final class ReferenceScenarios {
    private ReferenceScenarios() {
    }

    /** EVENT-61 takes 4 of SKU-29 (stock 10); the acknowledgement is lost after the consumer committed. */
    public static Scenario event61LostAck() {
        return Scenario.builder("event-61-lost-ack")
                .description("EVENT-61 takes 4 of SKU-29 (stock 10); the ack is lost after commit; redelivery must be absorbed")
                .pollers("p1", "p2").stock("SKU-29", 10).event("EVENT-61", "SKU-29", 4)
                .leaseTicks(2).ticksBeyondLease(0).maxLostAcks(1)
                .requires(Witness.DUPLICATE_ABSORBED, Witness.LEASE_RECLAIMED).build();
    }

    public static Scenario staleAckAfterExpiry() {
        return Scenario.builder("stale-ack-after-expiry")
                .description("a stalled owner acks or releases after its lease expired and another poller re-claimed the row")
                .pollers("p1", "p2").stock("SKU-1", 10).event("E1", "SKU-1", 3)
                .leaseTicks(2).ticksBeyondLease(1).maxDeliverFails(1)
                .requires(Witness.STALE_ACK, Witness.LEASE_RECLAIMED, Witness.DELIVERY_RETRIED).build();
    }

    public static Scenario doubleClaim() {
        return Scenario.builder("double-claim")
                .description("two pollers race to claim the same rows")
                .pollers("p1", "p2").stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 1).event("E2", "SKU-2", 2)
                .leaseTicks(2).ticksBeyondLease(0)
                .requires(Witness.LEASE_RECLAIMED).build();
    }

    public static Scenario crashRestart() {
        return Scenario.builder("crash-restart")
                .description("a poller crashes holding a batch; after expiry another poller must deliver it")
                .pollers("p1", "p2").stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 1).event("E2", "SKU-2", 2)
                .batch(2).leaseTicks(2).ticksBeyondLease(1).maxCrashes(1)
                .requires(Witness.LEASE_RECLAIMED, Witness.DUPLICATE_ABSORBED).build();
    }

    /** Two events of one aggregate with equal payloads, so order and payload dedup are both exposed. */
    public static Scenario aggregateOrder() {
        return Scenario.builder("aggregate-order")
                .description("two events of SKU-1 with equal payloads and one of SKU-2: order per aggregate, dedup by id")
                .pollers("p1", "p2").stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 2).event("E2", "SKU-1", 2).event("E3", "SKU-2", 1)
                .leaseTicks(2).ticksBeyondLease(0).maxLostAcks(1)
                .requires(Witness.DUPLICATE_ABSORBED).build();
    }

    public static Scenario producerAtomicity() {
        return Scenario.builder("producer-atomicity")
                .description("events are produced during the run; a producer failure may strike mid-produce")
                .pollers("p1").stock("SKU-1", 10).event("E1", "SKU-1", 1).event("E2", "SKU-1", 2)
                .producedDuringRun(true).maxProduceFails(1).maxDeliverFails(1)
                .requires(Witness.DELIVERY_RETRIED).build();
    }

    public static Scenario mixed() {
        return Scenario.builder("mixed")
                .description("2 pollers, 3 events over 2 aggregates, batch 2, lease 2, clock to lease+2, 1 crash, 1 lost ack")
                .pollers("p1", "p2").stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 2).event("E2", "SKU-2", 1).event("E3", "SKU-1", 2)
                .batch(2).leaseTicks(2).ticksBeyondLease(2).maxCrashes(1).maxLostAcks(1)
                .requires(Witness.STALE_ACK, Witness.DUPLICATE_ABSORBED, Witness.LEASE_RECLAIMED).build();
    }

    public static Scenario mixedBig() {
        return bigBase("mixed-big", 3, 1, 1)
                .description("3 pollers, 4 events over 2 aggregates, batch 2, lease 2, clock to lease+3, 1 crash, 1 lost ack")
                .build();
    }

    public static Scenario soak() {
        return bigBase("soak", 7, 2, 2)
                .description("3 pollers, 4 events over 2 aggregates, batch 2, lease 2, clock to lease+7, 2 crashes, 2 lost acks")
                .build();
    }

    /**
     * A lost ack's redelivery comes more than a lease after the marker was written (a re-claim
     * after expiry, then a stalled delivery), which is what a retention sized to the lease purges first. Requires
     * {@link Witness#LATE_REDELIVERY}, so the consumer dates its markers here.
     */
    public static Scenario markerRetention() {
        return Scenario.builder("marker-retention")
                .description("E1's ack is lost; its redelivery comes more than a lease after the marker: a retention "
                        + "policy must not purge the marker first")
                .pollers("p1", "p2").stock("SKU-1", 10).event("E1", "SKU-1", 3)
                .leaseTicks(1).ticksBeyondLease(1).maxLostAcks(1)
                .requires(Witness.DUPLICATE_ABSORBED, Witness.LATE_REDELIVERY).build();
    }

    /**
     * A poller holds a batch of two rows and acks the first while the second is still to
     * deliver, which is where an ack that touches more than its row marks an undelivered row DELIVERED.
     */
    public static Scenario batchAck() {
        return Scenario.builder("batch-ack")
                .description("a poller claims a batch of two rows and acks the first while the second is still to "
                        + "deliver; a crash may follow")
                .pollers("p1", "p2").stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 1).event("E2", "SKU-2", 2)
                .batch(2).leaseTicks(2).ticksBeyondLease(0).maxCrashes(1)
                .requires(Witness.ACK_MID_BATCH).build();
    }

    /**
     * A stalled poller's ack, and after a failed delivery its release, match no row because
     * another poller re-claimed it; the poller must take that as "not applied", not act as if it were.
     */
    public static Scenario unmatchedSettle() {
        return Scenario.builder("unmatched-settle")
                .description("a stalled poller's ack or release matches no row (another poller took the row over); "
                        + "it must not act as if it had applied")
                .pollers("p1", "p2").stock("SKU-1", 10).event("E1", "SKU-1", 3)
                .leaseTicks(1).ticksBeyondLease(1).maxDeliverFails(1)
                .requires(Witness.STALE_ACK, Witness.UNMATCHED_ACK, Witness.UNMATCHED_RELEASE).build();
    }

    private static Scenario.Builder bigBase(String name, int ticksBeyondLease, int crashes, int lostAcks) {
        return Scenario.builder(name)
                .pollers("p1", "p2", "p3").stock("SKU-1", 20).stock("SKU-2", 20)
                .event("E1", "SKU-1", 2).event("E2", "SKU-2", 1).event("E3", "SKU-1", 2).event("E4", "SKU-2", 3)
                .batch(2).leaseTicks(2).ticksBeyondLease(ticksBeyondLease).maxCrashes(crashes).maxLostAcks(lostAcks)
                .requires(Witness.STALE_ACK, Witness.DUPLICATE_ABSORBED, Witness.LEASE_RECLAIMED);
    }

    /**
     * A poller renews its lease while it works; it may stall until another poller took the row over, or until
     * that poller's lease lapsed in turn (clock to lease+2), and renew then.
     */
    public static Scenario leaseRenewal() {
        return Scenario.builder("lease-renewal")
                .description("a poller renews (heartbeat) its lease while it works, or after stalling past a takeover")
                .pollers("p1", "p2").stock("SKU-1", 10).event("E1", "SKU-1", 3)
                .leaseTicks(2).ticksBeyondLease(2).maxRenewals(1)
                .requires(Witness.LEASE_RENEWED, Witness.RENEWAL_REFUSED, Witness.LEASE_RECLAIMED).build();
    }

    /** Each poller's clock is off from the database's by up to one tick either way, chosen by the search. */
    public static Scenario clockSkew() {
        return Scenario.builder("clock-skew")
                .description("each poller's clock is off from the database's by -1, 0 or +1 tick; leases expire and are re-claimed")
                .pollers("p1", "p2").stock("SKU-1", 10).event("E1", "SKU-1", 3)
                .leaseTicks(2).ticksBeyondLease(1).maxSkew(1)
                .requires(Witness.CLOCK_SKEWED, Witness.LEASE_RECLAIMED).build();
    }

    /**
     * Two producer transactions overlap: E1's sequence is allocated first, but E2 may commit (and be claimed)
     * before E1 commits. Different aggregates, so claiming E2 first breaks no order.
     */
    public static Scenario commitVisibility() {
        return Scenario.builder("commit-visibility")
                .description("overlapping producers: E1's sequence is allocated before E2's, but E2 may commit and be claimed first")
                .pollers("p1", "p2").stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 1).event("E2", "SKU-2", 2)
                .producedDuringRun(true).producersOverlap(true).leaseTicks(2).ticksBeyondLease(0)
                .requires(Witness.LATE_COMMIT).build();
    }

    /**
     * The outbox cleanup job runs between the relay's transactions: E1 is delivered and purged while E2 is leased to a
     * poller, which may then crash or fail its delivery. A cleanup must take only DELIVERED rows.
     */
    public static Scenario outboxCleanup() {
        return Scenario.builder("outbox-cleanup")
                .description("the outbox cleanup job runs between the relay's transactions, deleting delivered rows while "
                        + "another is in flight; the poller holding it may crash or fail its delivery")
                .pollers("p1").stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 1).event("E2", "SKU-2", 2)
                .leaseTicks(2).ticksBeyondLease(0).maxCrashes(1).maxDeliverFails(1).cleanup(true)
                .requires(Witness.ROW_CLEANED_UP, Witness.DELIVERY_RETRIED).build();
    }

    /** Every reference scenario, smallest first (then the lease, settle and timing scenarios, then the cleanup's). */
    public static List<Scenario> all() {
        return List.of(event61LostAck(), staleAckAfterExpiry(), doubleClaim(), crashRestart(), aggregateOrder(),
                producerAtomicity(), mixed(), mixedBig(), soak(),
                markerRetention(), batchAck(), unmatchedSettle(), // retention, ack scope, unmatched settle
                leaseRenewal(), clockSkew(), commitVisibility(), // renewal, clock skew, commit visibility
                outboxCleanup());
    }

    /** The scenarios {@code relaycheck check} searches exhaustively by default (all but soak). */
    public static List<Scenario> defaults() {
        return all().stream().filter(s -> !s.name().equals("soak")).toList();
    }

    public static Optional<Scenario> byName(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
