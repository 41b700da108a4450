package dev.relaycheck.model.store;

import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayState;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A thread-safe, in-process relay store with the model's fencing semantics, built the way a real relay's
 * store would be: one lock per outbox row (the row lock a database takes for {@code FOR UPDATE}), one lock
 * per aggregate on the consumer side (the consumer's unique marker index plus row lock on the stock
 * balance), an atomic token counter and an atomic clock. No global lock.
 *
 * <p>Decisions (claimable, token, expiry, ack and release fencing, dedup key) come from a
 * {@link RelayLogic}, so the store can run any catalogue variant; subclasses break the atomicity itself
 * ({@link CheckThenActClaimStore}, {@link CheckThenInsertDedupStore}, {@link ReadThenWriteAckStore}).
 *
 * <p>A claim takes rows one at a time in sequence order: each row's check and write are atomic under the
 * row's lock, the batch as a whole is not (use batch 1 where a whole claim must be linearizable). It waits
 * for a locked row rather than skipping it, so that a claim never misses a row that was claimable.
 */
public class ConcurrentRelayStore implements RelayStore {

    protected final RelayLogic logic;
    protected final int leaseTicks;
    private final List<Event> events;
    private final Map<String, Integer> initialStock;
    private final List<RowSlot> rows = new ArrayList<>();
    private final Map<String, RowSlot> rowById = new TreeMap<>();
    private final Map<String, ConsumerStripe> stripes = new TreeMap<>();
    protected final AtomicLong lastToken = new AtomicLong();
    protected final AtomicInteger clock = new AtomicInteger();

    /** One outbox row and its lock. The row value is immutable; the slot is what changes. */
    protected static final class RowSlot {
        final ReentrantLock lock = new ReentrantLock();
        volatile OutboxRow row;

        RowSlot(OutboxRow row) {
            this.row = row;
        }
    }

    /** The consumer's data for one aggregate, guarded by its own lock. */
    protected static final class ConsumerStripe {
        final ReentrantLock lock = new ReentrantLock();
        final Map<String, String> markers = new TreeMap<>();
        final Map<String, Integer> effects = new TreeMap<>();
        final List<Integer> order = new ArrayList<>();
        volatile int stock;

        ConsumerStripe(int stock) {
            this.stock = stock;
        }
    }

    public ConcurrentRelayStore(RelayLogic logic, List<Event> events, Map<String, Integer> initialStock, int leaseTicks) {
        this.logic = logic;
        this.leaseTicks = leaseTicks;
        this.events = List.copyOf(events);
        this.initialStock = new TreeMap<>(initialStock);
        for (Event e : events) {
            RowSlot slot = new RowSlot(OutboxRow.pending(e));
            rows.add(slot);
            rowById.put(e.id(), slot);
        }
        initialStock.forEach((sku, units) -> stripes.put(sku, new ConsumerStripe(units)));
    }

    // ------------------------------------------------------------------ relay operations

    @Override
    public List<Held> claim(String poller, int batch) {
        List<Held> held = new ArrayList<>();
        for (RowSlot slot : rows) {
            if (held.size() == batch) {
                break;
            }
            slot.lock.lock();
            try {
                int now = clock.get();
                if (logic.isClaimable(slot.row, rowSnapshot(), now, poller)) {
                    held.add(writeLease(slot, poller, now));
                }
            } finally {
                slot.lock.unlock();
            }
        }
        return held;
    }

    /** Writes a fresh lease; the caller holds the row lock (or, in a broken store, does not). */
    protected Held writeLease(RowSlot slot, String poller, int now) {
        OutboxRow row = slot.row;
        long[] issued = new long[1];
        // read-and-advance the counter atomically: two claims of different rows must not share a token
        lastToken.updateAndGet(last -> {
            issued[0] = logic.issueToken(row, last, poller);
            return Math.max(last, issued[0]);
        });
        long token = issued[0];
        slot.row = row.withLease(new Lease(poller, token, logic.leaseExpiry(now, leaseTicks)));
        return new Held(row.id(), token);
    }

    /** The consumer transaction: marker and effect under the aggregate's lock. */
    @Override
    public Delivery consume(String eventId, long token) {
        Event e = event(eventId);
        ConsumerStripe stripe = stripes.get(e.aggregate());
        String key = logic.dedupKey(e, token);
        stripe.lock.lock();
        try {
            if (logic.consumerChecksMarker() && stripe.markers.containsKey(key)) {
                return Delivery.DUPLICATE;
            }
            if (logic.consumerShape() == RelayLogic.ConsumerShape.ONE_TRANSACTION) {
                apply(stripe, key, e);
                return Delivery.APPLIED;
            }
            firstHalf(stripe, key, e);
        } finally {
            stripe.lock.unlock();
        }
        stripe.lock.lock(); // a split consumer commits its second transaction separately
        try {
            secondHalf(stripe, key, e);
            return Delivery.APPLIED;
        } finally {
            stripe.lock.unlock();
        }
    }

    private void firstHalf(ConsumerStripe stripe, String key, Event e) {
        if (logic.consumerShape() == RelayLogic.ConsumerShape.MARKER_THEN_EFFECT) {
            stripe.markers.put(key, e.id());
        } else {
            applyEffect(stripe, e);
        }
    }

    private void secondHalf(ConsumerStripe stripe, String key, Event e) {
        if (logic.consumerShape() == RelayLogic.ConsumerShape.MARKER_THEN_EFFECT) {
            applyEffect(stripe, e);
        } else {
            stripe.markers.put(key, e.id());
        }
    }

    /** Inserts the marker and applies the effect; the caller holds the stripe lock. */
    protected static void apply(ConsumerStripe stripe, String key, Event e) {
        stripe.markers.put(key, e.id());
        applyEffect(stripe, e);
    }

    private static void applyEffect(ConsumerStripe stripe, Event e) {
        stripe.effects.merge(e.id(), 1, Integer::sum);
        stripe.stock -= e.quantity();
        stripe.order.add(e.seq());
    }

    @Override
    public boolean ack(String eventId, long token) {
        return fenced(eventId, row -> logic.acceptsAck(row, token), OutboxRow::delivered);
    }

    @Override
    public boolean release(String eventId, long token) {
        return fenced(eventId, row -> logic.acceptsRelease(row, token), row -> row.withLease(null));
    }

    /** Ack and release: under the row's lock, {@code change} the row if the logic {@code accepts} it (the fence). */
    private boolean fenced(String eventId, Predicate<OutboxRow> accepts, UnaryOperator<OutboxRow> change) {
        RowSlot slot = slot(eventId);
        slot.lock.lock();
        try {
            if (!accepts.test(slot.row)) {
                unlockOnBelief(slot);
                return false;
            }
            slot.row = change.apply(slot.row);
            return true;
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * The ack or release matched no row, but a poller that does not read the result and
     * unlocks after settling clears the row's lease by id anyway (under the same row lock: one transaction).
     * The answer returned is still the truth (false); what the poller would do with it is what it ignores.
     */
    private void unlockOnBelief(RowSlot slot) {
        if (logic.unlocksAfterSettling() && !logic.readsSettleResult() && slot.row.hasLease()) {
            slot.row = slot.row.withLease(null);
        }
    }

    /** The renewal under the row's lock: the logic's fence, then the lease's expiry moved, owner and token kept. */
    @Override
    public boolean renew(String eventId, long token, String poller) {
        RowSlot slot = slot(eventId);
        slot.lock.lock();
        try {
            int now = clock.get();
            OutboxRow row = slot.row;
            if (!row.hasLease() || !logic.acceptsRenewal(row, token, poller, now)) {
                return false;
            }
            slot.row = row.withLease(new Lease(row.lease().owner(), row.lease().token(), logic.leaseExpiry(now, leaseTicks)));
            return true;
        } finally {
            slot.lock.unlock();
        }
    }

    @Override
    public int tick() {
        return clock.incrementAndGet();
    }

    // ------------------------------------------------------------------ observation

    /** The row's volatile value: no lock, so a harness may read it at any point of a race. */
    @Override
    public OutboxRow row(String eventId) {
        return slot(eventId).row;
    }

    @Override
    public int stock(String sku) {
        return stripes.get(sku).stock;
    }

    @Override
    public int now() {
        return clock.get();
    }

    /** A consistent picture once the threads are done (not a linearizable read while they run). */
    @Override
    public Optional<RelayState> snapshot() {
        return Optional.of(state());
    }

    /** The shipped store always has its state. */
    @Override
    public RelayState state() {
        List<OutboxRow> rowValues = rowSnapshot();
        TreeSet<String> business = new TreeSet<>();
        events.forEach(e -> business.add(e.id()));
        TreeMap<String, String> markers = new TreeMap<>();
        TreeMap<String, Integer> stock = new TreeMap<>();
        TreeMap<String, Integer> effects = new TreeMap<>();
        TreeMap<String, List<Integer>> order = new TreeMap<>();
        stripes.forEach((sku, s) -> {
            s.lock.lock();
            try {
                markers.putAll(s.markers);
                effects.putAll(s.effects);
                stock.put(sku, s.stock);
                if (!s.order.isEmpty()) {
                    order.put(sku, List.copyOf(s.order));
                }
            } finally {
                s.lock.unlock();
            }
        });
        return new RelayState(clock.get(), lastToken.get(), rowValues, business,
                new ConsumerState(markers, stock, effects, order), List.of(),
                new ProducerState(events.size(), false), RelayState.FaultCounts.NONE);
    }

    public Map<String, Integer> initialStock() {
        return initialStock;
    }

    // ------------------------------------------------------------------ helpers for subclasses

    protected List<OutboxRow> rowSnapshot() {
        List<OutboxRow> out = new ArrayList<>(rows.size());
        rows.forEach(s -> out.add(s.row));
        return out;
    }

    protected List<RowSlot> slots() {
        return rows;
    }

    protected RowSlot slot(String eventId) {
        RowSlot slot = rowById.get(eventId);
        if (slot == null) {
            throw new IllegalArgumentException("no outbox row " + eventId);
        }
        return slot;
    }

    protected ConsumerStripe stripe(String sku) {
        return stripes.get(sku);
    }

    protected Event event(String eventId) {
        return slot(eventId).row.event();
    }
}
