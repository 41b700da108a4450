package com.example.relay;

import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.store.RelayStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A user's own in-process relay store, written the way a service might keep its outbox in memory in front of
 * its DAO: outbox rows in a {@link ConcurrentHashMap}, a token counter, a clock, and a consumer guarded by one
 * monitor. Everything but the claim lives here; {@link RacyClaimStore} and {@link FixedClaimStore} differ only
 * in how a claim writes its lease. It does not use relaycheck's store: it implements {@link RelayStore}, so
 * relaycheck can race it ({@code relaycheck stress --store ...}, {@code relaycheck lincheck --store ...}).
 */
public abstract class MemoryOutboxStore implements RelayStore {
    protected final ConcurrentHashMap<String, OutboxRow> rows = new ConcurrentHashMap<>();
    protected final AtomicLong tokens = new AtomicLong();
    protected final AtomicInteger clock = new AtomicInteger();
    protected final int leaseTicks;
    private final List<Event> events;
    private final Object consumer = new Object();
    private final TreeMap<String, String> markers = new TreeMap<>();
    private final TreeMap<String, Integer> stock;
    private final TreeMap<String, Integer> effects = new TreeMap<>();
    private final TreeMap<String, List<Integer>> applied = new TreeMap<>();

    protected MemoryOutboxStore(List<Event> events, Map<String, Integer> initialStock, int leaseTicks) {
        this.events = List.copyOf(events);
        this.leaseTicks = leaseTicks;
        this.stock = new TreeMap<>(initialStock);
        events.forEach(e -> rows.put(e.id(), OutboxRow.pending(e)));
    }

    /** Leases {@code row} (read at {@code now} and found claimable) to {@code poller}; the token, or empty if it lost. */
    protected abstract Optional<Long> lease(String eventId, OutboxRow row, String poller, int now);

    @Override
    public List<Held> claim(String poller, int batch) {
        List<Held> held = new ArrayList<>();
        for (Event e : events) {
            if (held.size() == batch) {
                break;
            }
            int now = clock.get();
            OutboxRow row = rows.get(e.id());
            if (claimable(row, now)) {
                lease(e.id(), row, poller, now).ifPresent(token -> held.add(new Held(e.id(), token)));
            }
        }
        return held;
    }

    /** PENDING, no live lease, and no earlier PENDING event of the same aggregate (per-aggregate order). */
    protected boolean claimable(OutboxRow row, int now) {
        if (!row.isPending() || !row.unleasedAt(now)) {
            return false;
        }
        for (Event earlier : events) {
            if (earlier.seq() < row.event().seq() && earlier.aggregate().equals(row.event().aggregate())
                    && rows.get(earlier.id()).isPending()) {
                return false;
            }
        }
        return true;
    }

    protected Lease leaseFor(String poller, long token, int now) {
        return new Lease(poller, token, now + leaseTicks);
    }

    @Override
    public Delivery consume(String eventId, long token) {
        Event e = rows.get(eventId).event();
        synchronized (consumer) { // the consumer's transaction: marker and effect together, deduplicated by event id
            if (markers.containsKey(e.id())) {
                return Delivery.DUPLICATE;
            }
            markers.put(e.id(), e.id());
            stock.merge(e.aggregate(), -e.quantity(), Integer::sum);
            effects.merge(e.id(), 1, Integer::sum);
            applied.computeIfAbsent(e.aggregate(), k -> new ArrayList<>()).add(e.seq());
            return Delivery.APPLIED;
        }
    }

    @Override
    public boolean ack(String eventId, long token) {
        boolean[] done = new boolean[1];
        // UPDATE outbox SET status = DELIVERED WHERE id = ? AND lease_token = ? AND status = PENDING
        rows.computeIfPresent(eventId, (id, row) -> {
            done[0] = holds(row, token);
            return done[0] ? row.delivered() : row;
        });
        return done[0];
    }

    @Override
    public boolean release(String eventId, long token) {
        boolean[] done = new boolean[1];
        rows.computeIfPresent(eventId, (id, row) -> {
            done[0] = holds(row, token);
            return done[0] ? row.withLease(null) : row;
        });
        return done[0];
    }

    private static boolean holds(OutboxRow row, long token) {
        return row.isPending() && row.hasLease() && row.lease().token() == token;
    }

    @Override
    public int tick() {
        return clock.incrementAndGet();
    }

    @Override
    public Optional<RelayState> snapshot() {
        List<OutboxRow> outbox = new ArrayList<>();
        TreeSet<String> business = new TreeSet<>();
        for (Event e : events) {
            outbox.add(rows.get(e.id()));
            business.add(e.id());
        }
        synchronized (consumer) {
            TreeMap<String, List<Integer>> order = new TreeMap<>();
            applied.forEach((sku, seqs) -> order.put(sku, List.copyOf(seqs)));
            return Optional.of(new RelayState(clock.get(), tokens.get(), outbox, business,
                    new ConsumerState(new TreeMap<>(markers), new TreeMap<>(stock), new TreeMap<>(effects), order),
                    List.of(), new ProducerState(events.size(), false), RelayState.FaultCounts.NONE));
        }
    }
}
