package dev.relaycheck.jdbc.race;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.model.Scenario;

/**
 * One real-thread race.
 *
 * @param relay            the relay the pollers run
 * @param pollers          poller threads, each with its own connections
 * @param events           events the producer thread commits while the pollers run
 * @param skus             aggregates the events are spread over (round robin, so every SKU has an order to keep)
 * @param batch            rows a claim takes at most
 * @param leaseTicks       lease length in logical ticks
 * @param tickMillis       a ticker thread advances the logical clock every this many milliseconds
 * @param seed             seeds every poller's fault and stall choices (thread timing itself is not seeded)
 * @param stallPercent     chance, at each pause point, that a poller stalls
 * @param maxStallMillis   longest stall (several leases long, so stalled owners go stale)
 * @param lostAckPercent   chance that an acknowledgement is lost after the consumer committed
 * @param deliverFailPercent chance that the consumer transaction rolls back
 * @param crashPercent     chance, per step of a busy poller, that it crashes
 * @param sharedDatabase   consumer tables in the outbox database instead of a separate one
 * @param deadlineMillis   how long the pollers get to deliver everything
 */
public record RaceConfig(RelayUnderTest relay, int pollers, int events, int skus, int batch, int leaseTicks,
                         int tickMillis, long seed, int stallPercent, int maxStallMillis, int lostAckPercent,
                         int deliverFailPercent, int crashPercent, boolean sharedDatabase, long deadlineMillis) {

    /**
     * The default race: 4 pollers, 48 events over 4 SKUs, leases of 3 ticks, frequent faults. A tick is 2 ms
     * on H2 and {@link #POSTGRES_SLOWDOWN} times that on PostgreSQL, whose transactions take that much longer:
     * leases must outlast a claim-deliver-ack round often enough for pollers to finish, and stalls must
     * outlast leases often enough for owners to go stale.
     */
    public static RaceConfig defaults(RelayUnderTest relay, DbTarget db, long seed) {
        int slow = db.dialect() == Dialect.POSTGRES ? POSTGRES_SLOWDOWN : 1;
        return new RaceConfig(relay, 4, 48, 4, 2, 3, 2 * slow, seed, 15, 12 * slow, 10, 8, 2, false, 60_000L * slow);
    }

    /** How many times longer a tick and a stall last on PostgreSQL than on H2 (a step costs about 7 times as much). */
    public static final int POSTGRES_SLOWDOWN = 5;

    public RaceConfig withSharedDatabase(boolean shared) {
        return new RaceConfig(relay, pollers, events, skus, batch, leaseTicks, tickMillis, seed, stallPercent,
                maxStallMillis, lostAckPercent, deliverFailPercent, crashPercent, shared, deadlineMillis);
    }

    public RaceConfig withSeed(long s) {
        return new RaceConfig(relay, pollers, events, skus, batch, leaseTicks, tickMillis, s, stallPercent,
                maxStallMillis, lostAckPercent, deliverFailPercent, crashPercent, sharedDatabase, deadlineMillis);
    }

    /** The same race with another deadline (a test's tiny one shows what a missed deadline becomes). */
    public RaceConfig withDeadlineMillis(long millis) {
        return new RaceConfig(relay, pollers, events, skus, batch, leaseTicks, tickMillis, seed, stallPercent,
                maxStallMillis, lostAckPercent, deliverFailPercent, crashPercent, sharedDatabase, millis);
    }

    public RaceConfig withEvents(int n) {
        return new RaceConfig(relay, pollers, n, skus, batch, leaseTicks, tickMillis, seed, stallPercent,
                maxStallMillis, lostAckPercent, deliverFailPercent, crashPercent, sharedDatabase, deadlineMillis);
    }

    /** The race's events and stock as a model scenario, so the model's state invariants can judge the end. */
    public Scenario scenario() {
        Scenario.Builder b = Scenario.builder("race").leaseTicks(leaseTicks).batch(batch).producedDuringRun(true);
        String[] names = new String[pollers];
        for (int i = 0; i < pollers; i++) {
            names[i] = "p" + (i + 1);
        }
        b.pollers(names);
        for (int s = 1; s <= skus; s++) {
            b.stock("SKU-" + s, 10_000);
        }
        for (int i = 1; i <= events; i++) {
            b.event("E" + i, "SKU-" + (1 + (i - 1) % skus), 1 + i % 3);
        }
        return b.build();
    }
}
