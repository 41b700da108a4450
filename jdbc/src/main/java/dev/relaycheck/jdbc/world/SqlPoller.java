package dev.relaycheck.jdbc.world;

import dev.relaycheck.jdbc.adapter.ClaimRequest;
import dev.relaycheck.jdbc.adapter.ClaimedRow;
import dev.relaycheck.jdbc.adapter.Delivery;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.db.Tx;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlShape;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.PollerState.Phase;
import dev.relaycheck.model.Step;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One relay poller over SQL: its own connections to both databases and its local memory (what it claimed
 * and where it is in its batch, the model's {@link PollerState}). {@link #runNext} runs the one transaction
 * the poller would run next, exactly as the model's poller decides it; the fault methods are what the
 * world does to it. Not thread-safe: one thread drives one poller.
 */
public final class SqlPoller implements AutoCloseable {
    private final String name;
    private final SqlShape shape;
    private final RelayAdapter adapter;
    private final Databases dbs;
    private final ConsumerSql consumerSql;
    private final int batch;
    private final int leaseTicks;
    private final Pauses pauses;
    /** The relay's cursor (shared with the relay's other pollers, moved by their claims) and the outcomes asked for. */
    private final PollerContext context;
    /** How far this poller's clock is off from the database's (a scenario with clock skew chooses it; it survives a crash). */
    private int skew;
    private Connection outbox;
    private Connection consumer;
    /** A connection that reads only what others committed: which changes an ack's own statements made. */
    private Connection committedView;
    private PollerState state = PollerState.IDLE;
    /** The events of the rows it holds (a real poller carries the payload it read with its claim). */
    private final Map<String, Event> carried = new TreeMap<>();
    private List<Event> readSet = List.of();

    public SqlPoller(String name, RelayUnderTest relay, Databases dbs, int batch, int leaseTicks, Pauses pauses)
            throws SQLException {
        this(name, relay, dbs, batch, leaseTicks, pauses, UserCode.NONE);
    }

    /** A poller whose consumer transaction also runs the team's own handler. */
    public SqlPoller(String name, RelayUnderTest relay, Databases dbs, int batch, int leaseTicks, Pauses pauses, UserCode user)
            throws SQLException {
        this(name, relay, dbs, batch, leaseTicks, pauses, user, PollerContext.alone());
    }

    /** A poller of one world: its relay's shared cursor, and the settle outcomes its scenario asks for. */
    public SqlPoller(String name, RelayUnderTest relay, Databases dbs, int batch, int leaseTicks, Pauses pauses, UserCode user,
                     PollerContext context) throws SQLException {
        this.context = context;
        this.name = name;
        this.shape = relay.shape();
        this.adapter = relay.newAdapter();
        this.dbs = dbs;
        this.consumerSql = new ConsumerSql(shape, user);
        this.batch = batch;
        this.leaseTicks = leaseTicks;
        this.pauses = pauses;
        connect();
    }

    private void connect() throws SQLException {
        outbox = dbs.openOutbox();
        consumer = dbs.openConsumer();
    }

    public String name() {
        return name;
    }

    public PollerState state() {
        return state;
    }

    public boolean isIdle() {
        return state.isIdle();
    }

    /** Runs the poller's next transaction at logical time {@code now}. */
    public Action runNext(int now) {
        return switch (state.phase()) {
            case IDLE -> adapter.claimsInTwoTransactions() ? readForClaim(now) : claim(now);
            case CLAIMING -> writeClaim(now);
            case TO_DELIVER -> adapter.deliversAndAcks() ? deliverAndAck(now) : deliver(now);
            case DELIVERING -> deliverSecondHalf(now);
            case TO_ACK -> ack(now);
            case TO_RELEASE -> release(now);
        };
    }

    private ClaimRequest request(int now) {
        return new ClaimRequest(name, now, batch, leaseTicks, adapter.readsByCursor() ? context.cursor().value() : 0, now + skew);
    }

    private Action claim(int now) {
        try {
            Set<String> leased = leasedRows();
            List<ClaimedRow> rows = adapter.claim(outbox, request(now));
            pauses.at(Pauses.Point.MID_CLAIM); // inside the claim's transaction, its locks held
            outbox.commit();
            Outcome.Claimed claimed = granted(rows, leased, now);
            take(claimed);
            return new Action(new Step.Claim(name), claimed);
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, name + " claim", ex);
        }
    }

    private Action readForClaim(int now) {
        List<Event> seen;
        try {
            seen = adapter.claimRead(outbox, request(now));
            outbox.commit();
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, name + " claim read", ex);
        }
        if (seen.isEmpty()) {
            return new Action(new Step.Claim(name), new Outcome.Claimed(List.of()));
        }
        readSet = List.copyOf(seen);
        state = new PollerState(Phase.CLAIMING, List.of(), seen.stream().map(Event::id).toList());
        return new Action(new Step.Claim(name), new Outcome.ClaimRead(state.readSet()));
    }

    private Action writeClaim(int now) {
        pauses.at(Pauses.Point.MID_CLAIM);
        try {
            Set<String> leased = leasedRows();
            List<ClaimedRow> rows = adapter.claimWrite(outbox, request(now), readSet);
            outbox.commit();
            readSet = List.of();
            Outcome.Claimed claimed = granted(rows, leased, now);
            take(claimed);
            return new Action(new Step.Claim(name), claimed);
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, name + " claim write", ex);
        }
    }

    /** The rows holding a lease right before a claim: a grant on one of them took over an expired lease. */
    private Set<String> leasedRows() throws SQLException {
        Set<String> ids = new TreeSet<>();
        for (OutboxRow r : adapter.snapshot(outbox).rows()) {
            if (r.hasLease()) {
                ids.add(r.id());
            }
        }
        return ids;
    }

    private Outcome.Claimed granted(List<ClaimedRow> rows, Set<String> leasedBefore, int now) {
        List<Outcome.Grant> grants = new ArrayList<>();
        for (ClaimedRow r : rows) {
            context.expiryClocks().claimed(r.event().id(), r.token(), r.expiry(), now, skew, leaseTicks);
            carried.put(r.event().id(), r.event());
            context.cursor().passed(r.event().seq());
            grants.add(new Outcome.Grant(r.event().id(), r.token(), r.expiry(), leasedBefore.contains(r.event().id())));
        }
        return new Outcome.Claimed(grants);
    }

    /**
     * Makes this poller hold {@code rows}, as if its own claim had just returned them: a fixture's poller that took
     * rows and has not delivered them yet.
     */
    public void holds(List<ClaimedRow> rows) {
        take(granted(rows, Set.of(), 0));
    }

    private void take(Outcome.Claimed claimed) {
        if (claimed.grants().isEmpty()) {
            state = PollerState.IDLE;
            return;
        }
        List<Held> held = new ArrayList<>();
        for (Outcome.Grant g : claimed.grants()) {
            held.add(new Held(g.eventId(), g.token()));
        }
        state = new PollerState(firstPhaseOfItem(), held, List.of());
    }

    /** The event of a held row, as the claim read it. */
    private Event event(String id) {
        Event e = carried.get(id);
        if (e == null) {
            throw new IllegalStateException(name + " holds " + id + " but never read its event");
        }
        return e;
    }

    private Action deliver(int now) {
        pauses.at(Pauses.Point.BEFORE_DELIVER);
        Held h = state.head();
        Outcome o = late(consumerSql.deliver(consumer, event(h.eventId()), h.token(), now), now);
        state = o instanceof Outcome.HalfApplied ? at(Phase.DELIVERING) : afterDelivery();
        return new Action(new Step.Deliver(name, h.eventId(), h.token()), o);
    }

    /**
     * A duplicate absorbed by a marker older than the lease, where the scenario asks (LATE_DUPLICATE, as the model
     * reports it: a shorter retention would have lost it). The age is read from the marker's written_at.
     */
    private Outcome late(Outcome o, int now) {
        if (!(o instanceof Outcome.Duplicate d) || context.lateDuplicateAfter() < 0) {
            return o;
        }
        try (java.sql.PreparedStatement ps = consumer.prepareStatement("SELECT MIN(written_at) FROM applied_event WHERE event_id = ?")) {
            ps.setString(1, d.eventId());
            int age;
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                int at = rs.getInt(1);
                age = rs.wasNull() ? -1 : now - at;
            }
            consumer.commit();
            return age > context.lateDuplicateAfter() ? new Outcome.LateDuplicate(d.eventId(), age) : o;
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(consumer, "marker age of " + d.eventId(), ex);
        }
    }

    /**
     * The relay's deliver-and-ack transaction: its handler applies the effect through a {@link Delivery}, it
     * acknowledges, relaycheck commits. APPLIED when the relay acknowledged, STALE when it refused the row.
     * A {@link Pauses.Killed} inside it (the race's crash) rolls back what is open and crashes the poller.
     */
    private Action deliverAndAck(int now) {
        pauses.at(Pauses.Point.BEFORE_DELIVER);
        Held h = state.head();
        Event e = event(h.eventId());
        Step step = new Step.Deliver(name, h.eventId(), h.token());
        try {
            boolean acked = adapter.deliverAndAck(outbox, new ClaimedRow(e, h.token(), 0), now, delivery(e, h.token()));
            if (acked) {
                pauses.at(Pauses.Point.BEFORE_ACK_COMMIT);
            }
            outbox.commit();
            Outcome o = acked ? new Outcome.Applied(h.eventId()) : new Outcome.Stale(h.eventId(), h.token(), currentToken(h.eventId()));
            if (!acked) {
                outbox.commit();
            }
            state = advance();
            return new Action(step, o);
        } catch (Pauses.Killed k) {
            Tx.rollbackQuietly(outbox, k);
            return crash();
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, "deliver-and-ack " + h.eventId(), ex);
        }
    }

    /** What the relay's handler calls to apply the effect of {@code e}, inside its transaction or outside. */
    private Delivery delivery(Event e, long token) {
        return new Delivery() {
            @Override
            public void applyIn(Connection connection) throws SQLException {
                consumerSql.applyWithoutDedup(connection, e, token);
                pauses.at(Pauses.Point.AFTER_HANDLER_EFFECT);
            }

            @Override
            public void applyOutside() throws SQLException {
                try {
                    consumerSql.applyWithoutDedup(consumer, e, token);
                    consumer.commit();
                } catch (SQLException ex) {
                    Tx.rollbackQuietly(consumer, ex);
                    throw ex;
                }
                pauses.at(Pauses.Point.AFTER_HANDLER_EFFECT);
            }
        };
    }

    private Action deliverSecondHalf(int now) {
        Held h = state.head();
        Outcome o = late(consumerSql.deliverSecondHalf(consumer, event(h.eventId()), h.token(), now), now);
        state = afterDelivery();
        return new Action(new Step.Deliver(name, h.eventId(), h.token()), o);
    }

    private Action ack(int now) {
        pauses.at(Pauses.Point.BEFORE_ACK);
        Held h = state.head();
        Outcome o = fenced(true, h, now);
        state = shape.ackFirst() ? at(Phase.TO_DELIVER) : advance();
        return new Action(new Step.Ack(name, h.eventId(), h.token()), o);
    }

    private Action release(int now) {
        Held h = state.head();
        Outcome o = fenced(false, h, now);
        state = advance();
        return new Action(new Step.Release(name, h.eventId(), h.token()), o);
    }

    /**
     * The fenced acknowledgement or release: the row changed, ACKED (mid-batch where the scenario asks, or where it
     * marked other rows too) or RELEASED; it did not, STALE (UNMATCHED where the scenario asks). A poller that does not
     * read the row count ({@link SqlShape#readsSettleResult}) believes it settled the row and runs its cleanup: it
     * unlocks the row by id, whoever holds it now (relaycheck runs the relay's release with the token the row holds,
     * and its owner, which is what an unlock by id does).
     */
    private Outcome fenced(boolean isAck, Held h, int now) {
        try {
            List<OutboxRow> before = isAck && (state.batch().size() > 1 || context.settle().midBatch())
                    ? adapter.snapshot(outbox).rows() : List.of();
            boolean changed = isAck ? adapter.ack(outbox, h.eventId(), h.token(), now, name)
                    : adapter.release(outbox, h.eventId(), h.token(), now, name);
            if (changed) {
                Outcome o = isAck ? acked(h, before) : new Outcome.Released(h.eventId(), h.token());
                outbox.commit();
                return o;
            }
            Optional<OutboxRow> row = row(h.eventId()); // which lease the row holds: for the report, and a blind unlock
            long current = row.map(OutboxRow::currentToken).orElse(Outcome.ROW_DELETED);
            boolean unlocks = !shape.readsSettleResult() && current >= 0;
            if (unlocks) {
                adapter.release(outbox, h.eventId(), current, now, row.get().hasLease() ? row.get().lease().owner() : name);
            }
            outbox.commit();
            String what = isAck ? Outcome.Unmatched.ACK : Outcome.Unmatched.RELEASE;
            return unlocks || context.settle().unmatched() ? new Outcome.Unmatched(what, h.eventId(), h.token(), current, unlocks)
                    : new Outcome.Stale(h.eventId(), h.token(), current);
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, (isAck ? "ack " : "release ") + h.eventId(), ex);
        }
    }

    /**
     * An ack that matched: ACKED, or ACKED mid-batch when rows of the batch are still to deliver (where the scenario
     * asks) or the ack itself marked other rows DELIVERED too. Read back in the ack's transaction, a row pending
     * {@code before} and delivered now may have been delivered by another poller's commit in between (the read is
     * READ COMMITTED); the ack made the change only where the committed tables still show the row pending, since its
     * own change is not committed yet and no one else can commit over the row it wrote.
     */
    private Outcome acked(Held h, List<OutboxRow> before) throws SQLException {
        List<String> also = new ArrayList<>();
        if (!before.isEmpty()) {
            Set<String> deliveredNow = new TreeSet<>();
            adapter.snapshot(outbox).rows().stream().filter(r -> !r.isPending()).forEach(r -> deliveredNow.add(r.id()));
            before.stream().filter(r -> r.isPending() && !r.id().equals(h.eventId()) && deliveredNow.contains(r.id()))
                    .forEach(r -> also.add(r.id()));
        }
        if (!also.isEmpty()) {
            Set<String> pendingCommitted = new TreeSet<>();
            committedRows().stream().filter(OutboxRow::isPending).forEach(r -> pendingCommitted.add(r.id()));
            also.retainAll(pendingCommitted);
        }
        List<String> still = state.batch().subList(1, state.batch().size()).stream().map(Held::eventId).toList();
        boolean mid = !also.isEmpty() || context.settle().midBatch() && !still.isEmpty();
        return mid ? new Outcome.AckedMidBatch(h.eventId(), h.token(), still, also) : new Outcome.Acked(h.eventId(), h.token());
    }

    /** The outbox rows as committed now, read on a connection of its own (opened on first use). */
    private List<OutboxRow> committedRows() throws SQLException {
        if (committedView == null) {
            committedView = dbs.openOutbox();
        }
        try {
            return adapter.snapshot(committedView).rows();
        } finally {
            committedView.rollback();
        }
    }

    private long currentToken(String eventId) throws SQLException {
        return row(eventId).map(OutboxRow::currentToken).orElse(Outcome.ROW_DELETED);
    }

    private Optional<OutboxRow> row(String eventId) throws SQLException {
        return adapter.snapshot(outbox).rows().stream().filter(r -> r.id().equals(eventId)).findFirst();
    }

    /**
     * The heartbeat: the poller extends the lease on the head of its batch (the relay's {@code renew}, fenced as the
     * relay fences it). Refused, the poller knows it lost the lease and gives up its batch, as the model's does. Null
     * when the poller holds nothing to renew.
     */
    public Action renew(int now) {
        if (state.phase() != Phase.TO_DELIVER && state.phase() != Phase.TO_ACK) {
            return null;
        }
        Held h = state.head();
        Step step = new Step.Renew(name, h.eventId(), h.token());
        int expiry = now + leaseTicks;
        try {
            if (adapter.renew(outbox, h.eventId(), h.token(), name, now, expiry)) {
                outbox.commit();
                return new Action(step, new Outcome.Renewed(h.eventId(), h.token(), expiry));
            }
            long current = currentToken(h.eventId());
            outbox.commit();
            List<String> abandoned = state.batch().stream().map(Held::eventId).toList();
            forget();
            return new Action(step, new Outcome.RenewalRefused(h.eventId(), h.token(), current, abandoned));
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, "renew " + h.eventId(), ex);
        }
    }

    // ------------------------------------------------------------------ faults

    /** The poller process dies: open transactions roll back, connections drop, local memory is gone. */
    public Action crash() {
        List<String> forgotten = new ArrayList<>(state.readSet());
        state.batch().forEach(h -> forgotten.add(h.eventId()));
        try {
            closeConnections();
            connect();
        } catch (SQLException ex) {
            throw new RelaySqlException(name + " reconnect after crash", ex);
        }
        forget();
        return new Action(new Step.Crash(name), new Outcome.Crashed(name, forgotten));
    }

    /**
     * The consumer committed but the acknowledgement is lost: its UPDATE runs and the connection breaks
     * before COMMIT. The poller gives up its batch; the rows stay leased until they expire. Null when the
     * poller has no acknowledgement to lose.
     */
    public Action loseAck(int now) {
        if (state.phase() != Phase.TO_ACK) {
            return null;
        }
        Held h = state.head();
        try {
            adapter.ack(outbox, h.eventId(), h.token(), now, name);
            outbox.rollback();
        } catch (SQLException ex) {
            throw Tx.rollbackAndWrap(outbox, "lost ack " + h.eventId(), ex);
        }
        List<String> abandoned = state.batch().stream().map(Held::eventId).toList();
        forget();
        return new Action(new Step.LoseAck(name, h.eventId()), new Outcome.AckLost(h.eventId(), abandoned));
    }
    /** The consumer transaction fails before COMMIT; the poller will release the row. Null when not delivering. */
    public Action deliverFails() {
        if (state.phase() != Phase.TO_DELIVER) {
            return null;
        }
        Held h = state.head();
        Outcome o = consumerSql.deliverAndFail(consumer, event(h.eventId()), h.token());
        state = at(Phase.TO_RELEASE);
        return new Action(new Step.DeliverFails(name, h.eventId()), o);
    }

    /** The poller's clock is {@code skew} ticks off from the database's from now on (0: a fresh scenario). */
    public Action skew(int skew) {
        this.skew = skew;
        return new Action(new Step.Skew(name, skew), new Outcome.Skewed(name, skew));
    }

    /** Forgets local state without touching the database (a fresh start of a scenario). */
    void forget() {
        state = PollerState.IDLE;
        readSet = List.of();
        carried.clear();
    }

    // ------------------------------------------------------------------ local state, as the model moves it

    private Phase firstPhaseOfItem() {
        return shape.ackFirst() ? Phase.TO_ACK : Phase.TO_DELIVER;
    }

    private PollerState at(Phase next) {
        return new PollerState(next, state.batch(), state.readSet());
    }

    private PollerState afterDelivery() {
        return shape.ackFirst() ? advance() : at(Phase.TO_ACK);
    }

    private PollerState advance() {
        List<Held> b = state.batch();
        if (b.size() <= 1) {
            carried.clear();
            return PollerState.IDLE;
        }
        carried.remove(b.get(0).eventId());
        return new PollerState(firstPhaseOfItem(), b.subList(1, b.size()), List.of());
    }

    private void closeConnections() {
        for (Connection c : new Connection[]{outbox, consumer, committedView}) {
            if (c == null) {
                continue;
            }
            try {
                c.rollback();
                c.close();
            } catch (SQLException ignored) {
                // a crashed poller's connection may already be broken; the database rolls it back either way
            }
        }
        committedView = null;
    }

    @Override
    public void close() {
        closeConnections();
    }
}
