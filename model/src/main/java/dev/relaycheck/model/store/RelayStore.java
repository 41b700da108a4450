package dev.relaycheck.model.store;

import dev.relaycheck.model.Held;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayState;

import java.util.List;
import java.util.Optional;

/**
 * A thread-safe relay store: the shared-state transactions of a relay (claim, the consumer transaction, the
 * fenced ack and release, the clock) as one object that real threads race on. {@link ConcurrentRelayStore}
 * is the shipped one; a user implements this interface around the in-process claim/ack/consume code of
 * their own relay (a cache-backed store, a store in front of their DAO) and points relaycheck's jcstress
 * harnesses and Lincheck checks at it with {@code --store CLASS --classpath JAR}.
 *
 * <p>The checks judge a store by what its operations answer (linearizable to the pure model, the jcstress
 * outcome tables) and, when it can produce one, by its {@link #snapshot()} as the model's state (the
 * invariants, the harnesses' arbiters). A store that cannot produce a snapshot gets the outcome-only checks.
 *
 * <p>A user's store class needs a public constructor {@code (RelayLogic logic, List<Event> events,
 * Map<String, Integer> initialStock, int leaseTicks)} or {@code (List<Event> events, Map<String, Integer>
 * initialStock, int leaseTicks)}: the events are already produced (PENDING, no lease), the clock is 0 and no
 * token has been issued.
 */
public interface RelayStore {

    /** Answer of the consumer transaction. */
    enum Delivery {
        APPLIED,
        DUPLICATE
    }

    /** Claims up to {@code batch} claimable rows for {@code poller}; returns what it now holds, in sequence order. */
    List<Held> claim(String poller, int batch);

    /** The consumer transaction for {@code eventId} delivered under {@code token}: marker and effect, or DUPLICATE. */
    Delivery consume(String eventId, long token);

    /** The fenced ack. True: ACKED, the row is DELIVERED; false: STALE, nothing changed. */
    boolean ack(String eventId, long token);

    /** The fenced release (after a failed delivery). True: the lease is cleared; false: STALE, nothing changed. */
    boolean release(String eventId, long token);

    /**
     * A lease renewal (heartbeat) by {@code poller} presenting {@code token}: true when the lease was extended, the
     * poller may go on working under it; false when it lost the lease. The default is a relay that never renews
     * (every renewal refused), so a store written before renewals existed keeps its meaning.
     */
    default boolean renew(String eventId, long token, String poller) {
        return false;
    }

    /** Moves the logical clock one tick; returns the new time. */
    int tick();

    /**
     * The whole store as the model's state (rows with their leases, the clock, the last token issued, the
     * consumer's markers, stock, effects and applied order), or empty when this store cannot produce one.
     * Read once the racing threads are done; it need not be a linearizable read while they run.
     */
    Optional<RelayState> snapshot();

    /** The row of {@code eventId} now; from the snapshot unless the store knows a cheaper read. */
    default OutboxRow row(String eventId) {
        return state().row(eventId).orElseThrow(() -> new IllegalArgumentException("no outbox row " + eventId));
    }

    /** The consumer's stock of {@code sku} now; from the snapshot unless the store knows a cheaper read. */
    default int stock(String sku) {
        Integer units = state().consumer().stock().get(sku);
        if (units == null) {
            throw new IllegalArgumentException("no stock for " + sku);
        }
        return units;
    }

    /** The logical clock now; from the snapshot unless the store knows a cheaper read. */
    default int now() {
        return state().clock();
    }

    /** The snapshot, for a check that cannot run without one. */
    default RelayState state() {
        return snapshot().orElseThrow(() -> new SnapshotUnavailableException(getClass().getName()));
    }

    /** Thrown by a check that needs the state of a store that cannot produce a snapshot. */
    final class SnapshotUnavailableException extends IllegalStateException {
        public SnapshotUnavailableException(String store) {
            super(store + " produces no snapshot (RelayStore.snapshot() is empty): only outcome-only checks can run on it");
        }
    }
}
