package dev.relaycheck.checker.packed;

import static dev.relaycheck.checker.packed.PackedLayout.CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.EXPIRY;
import static dev.relaycheck.checker.packed.PackedLayout.LAST_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.OWNER;
import static dev.relaycheck.checker.packed.PackedLayout.PENDING;
import static dev.relaycheck.checker.packed.PackedLayout.STATUS;
import static dev.relaycheck.checker.packed.PackedLayout.TOKEN;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayLogic.ClaimShape;
import dev.relaycheck.model.RelayLogic.ConsumerShape;
import dev.relaycheck.model.RelayLogic.ProducerShape;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The decisions of a logic the packed engine does not know (a user's), memoised over the finite domain of a
 * scenario. A logic's decisions are pure functions of their arguments (its contract, which
 * {@link dev.relaycheck.model.CheckedLogic} holds it to), and in a scenario every argument ranges over a small
 * set: the outbox rows' status and lease, the clock, the tokens, the pollers. So each question is asked once a
 * worker, with readable rows built for it, and its answer is kept under its arguments packed into a key of a
 * few bits; every later state that asks the same question reads the answer. An argument the logic cannot
 * read is left out of the key: the poller and the clock where it keeps the interface's default of the
 * overload that gets them (that default asks the original, which does not).
 *
 * <p>One worker's table; the dedup keys, which states carry from one worker to another, are in {@link Shared}.
 */
final class LogicTable {
    private static final int EVENT_BITS = 5; // at most 31 events
    private static final int POLLER_BITS = 4; // at most 16 pollers
    private static final int STATUS_BITS = 2; // ABSENT, PENDING, DELIVERED

    /** Bits that hold every value below {@code limit}. */
    private static int bits(int limit) {
        return 32 - Integer.numberOfLeadingZeros(Math.max(1, limit - 1));
    }

    /** {@code value}, checked to lie in [0, limit): a key holds nothing past it. */
    private static long fit(int value, int limit, String what) {
        if (value < 0 || value >= limit) {
            throw new PackedSpace.Overflow("a " + what + " of " + value + " is past the " + (limit - 1) + " the packed tables hold");
        }
        return value;
    }

    /**
     * What every worker shares: the logic's shapes (asked once), which arguments each decision reads, and the
     * dedup keys interned, per event and delivery token.
     */
    static final class Shared {
        final RelayLogic logic;
        final Scenario scenario;
        final Shapes shapes;
        final int maxTicks;
        final int grantedLease;
        final int healingBound;
        final boolean checkThenAct;
        /** Whether a marker's key depends on the token it was delivered under, so each row keeps that token. */
        final boolean markerTokens;
        final boolean claimKnowsPoller;
        final boolean tokenKnowsPoller;
        final boolean ackKnowsContext;
        final boolean releaseKnowsContext;
        // a dedup key's id per (event, token), 0 while unknown; looked up only, never iterated
        private final Map<String, Integer> keyIds = new ConcurrentHashMap<>();
        private final AtomicInteger lastKeyId = new AtomicInteger();
        private final Map<Integer, String> keyNames = new ConcurrentHashMap<>(); // the key of each id; looked up only
        private AtomicIntegerArray keyIdByEventToken; // sized by the layout's token bound
        private int tokenColumns;
        private final AtomicIntegerArray keyOfEvent; // without marker tokens: the one key id of each event's marker

        /** Asks the logic its shapes; throws the {@link LogicFailure} of a logic that fails on them. */
        Shared(RelayModel model) {
            logic = model.logic();
            scenario = model.scenario();
            shapes = Shapes.of(logic);
            checkThenAct = shapes.checkThenAct();
            maxTicks = model.maxTicks();
            grantedLease = model.grantedLease();
            healingBound = Healing.bound(model);
            Class<?> user = dev.relaycheck.model.CheckedLogic.unwrap(logic).getClass();
            claimKnowsPoller = readsContext(user, "isClaimable");
            tokenKnowsPoller = readsContext(user, "issueToken");
            ackKnowsContext = readsContext(user, "acceptsAck");
            releaseKnowsContext = readsContext(user, "acceptsRelease");
            markerTokens = keyDependsOnToken(logic, scenario.events());
            keyOfEvent = new AtomicIntegerArray(scenario.events().size());
        }

        /**
         * Sizes the keys by what a question's arguments can be (before any worker starts): in the search, the
         * layout's bounds; a healing run goes further, a tick or a claim each step, on a scratch never packed.
         */
        void sizeFor(PackedLayout at) {
            clockLimit = at.maxTicks + healingBound + 1;
            tokenLimit = at.tokens + healingBound * at.batch + 1;
            expiryLimit = clockLimit + Math.max(scenario.leaseTicks(), grantedLease) + 2; // the last code: NEVER
            tokenColumns = tokenLimit;
            keyIdByEventToken = new AtomicIntegerArray(at.events * tokenColumns);
        }

        int clockLimit;
        int tokenLimit;
        int expiryLimit;

        /**
         * Whether the logic's dedup key of some event differs between deliveries under tokens 1 and 2 (or it
         * fails to say: then the layout keeps the tokens, and the search meets the failure where the readable
         * model would). It only shapes the layout: a key found to depend on the token later stops the packed
         * search, and the readable model runs it.
         */
        private static boolean keyDependsOnToken(RelayLogic logic, List<Event> events) {
            try {
                for (Event e : events) {
                    if (!logic.dedupKey(e, 1).equals(logic.dedupKey(e, 2))) {
                        return true;
                    }
                }
                return false;
            } catch (LogicFailure f) {
                return true;
            }
        }

        /**
         * Whether {@code user}'s answer to decision {@code name} can depend on the context (the poller, the clock)
         * that only its longer overloads are given: whether it declares any of them, anywhere but in the
         * interface, whose defaults only pass the question on to the shorter form. The model asks the longest
         * form, whichever of them a class overrides.
         */
        static boolean readsContext(Class<?> user, String name) {
            int shortest = Integer.MAX_VALUE;
            for (java.lang.reflect.Method m : RelayLogic.class.getMethods()) {
                if (m.getName().equals(name)) {
                    shortest = Math.min(shortest, m.getParameterCount());
                }
            }
            for (java.lang.reflect.Method m : RelayLogic.class.getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() > shortest) {
                    try {
                        if (user.getMethod(name, m.getParameterTypes()).getDeclaringClass() != RelayLogic.class) {
                            return true;
                        }
                    } catch (NoSuchMethodException e) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** The id of the dedup key of {@code event} delivered under {@code token}, asking the logic once. */
        int keyId(int event, int token) {
            int at = event * tokenColumns + (int) fit(token, tokenColumns, "token");
            int id = keyIdByEventToken.get(at);
            if (id != 0) {
                return id;
            }
            String key = logic.dedupKey(scenario.events().get(event), token);
            id = keyIds.computeIfAbsent(key, k -> {
                int fresh = lastKeyId.incrementAndGet();
                keyNames.put(fresh, k);
                return fresh;
            });
            keyIdByEventToken.set(at, id);
            if (!markerTokens && !keyOfEvent.compareAndSet(event, 0, id) && keyOfEvent.get(event) != id) {
                throw new PackedSpace.Overflow("logic " + logic.id() + " keys the marker of "
                        + scenario.events().get(event).id() + " by its delivery token; the readable model keeps every key");
            }
            return id;
        }

        /** The dedup key that id {@code id} stands for, as the logic gave it. */
        String keyName(int id) {
            return keyNames.get(id);
        }

        /** The key id of the marker an event's applied delivery under {@code markerToken} wrote. */
        int markerKeyId(int event, int markerToken) {
            if (markerTokens) {
                return keyId(event, markerToken);
            }
            int id = keyOfEvent.get(event);
            if (id == 0) {
                throw new IllegalStateException("internal error: no dedup key known for applied event " + event);
            }
            return id;
        }
    }

    /** The logic's constant answers: how it commits and in which order a poller works. */
    record Shapes(boolean splitProducer, boolean checkThenAct, boolean acksFirst, boolean checksMarker,
                  ConsumerShape consumer) {
        static Shapes of(RelayLogic logic) {
            return new Shapes(logic.producerShape() == ProducerShape.BUSINESS_THEN_OUTBOX,
                    logic.claimShape() == ClaimShape.CHECK_THEN_ACT, logic.acksBeforeDelivering(),
                    logic.consumerChecksMarker(), logic.consumerShape());
        }
    }

    final Shared shared;
    private final PackedLayout at;
    private final RelayLogic logic;
    private final List<Event> events;
    private final List<String> pollers;
    private final Memo claims;
    private final Memo tokens;
    private final Memo acks;
    private final Memo releases;
    private final int clockBits;
    private final int tokenBits;
    private final int expiryBits;
    private final int ownerBits;
    private final Memo.KeyBuilder claimKey;
    private final Memo.KeyBuilder tokenKey;
    private final Memo.KeyBuilder fenceKey;
    private final int[] keyIds; // this worker's copy of the shared key ids per (event, token), 0 while unknown ...
    private final int[] markerKeys; // ... and per event, without marker tokens
    private int[] expiries; // per clock value, the expiry a claim then writes ...
    private boolean[] expiryKnown; // ... once asked

    LogicTable(Shared shared, PackedLayout at) {
        this.shared = shared;
        this.at = at;
        this.logic = shared.logic;
        this.events = shared.scenario.events();
        this.pollers = shared.scenario.pollers();
        clockBits = bits(shared.clockLimit);
        tokenBits = bits(shared.tokenLimit);
        expiryBits = bits(shared.expiryLimit);
        ownerBits = bits(at.pollers + 1);
        int rowBits = 0;
        int widestRow = 0;
        for (int e = 0; e < at.events; e++) {
            rowBits += rowWidth(e);
            widestRow = Math.max(widestRow, rowWidth(e));
        }
        int clock = clockBits;
        int token = tokenBits;
        claimKey = new Memo.KeyBuilder(rowBits + clock + (shared.claimKnowsPoller ? POLLER_BITS : 0));
        tokenKey = new Memo.KeyBuilder(widestRow + EVENT_BITS + token + POLLER_BITS);
        fenceKey = new Memo.KeyBuilder(widestRow + EVENT_BITS + token + POLLER_BITS + clock);
        claims = new Memo(claimKey.width());
        tokens = new Memo(tokenKey.width());
        acks = new Memo(fenceKey.width());
        releases = new Memo(fenceKey.width());
        keyIds = new int[at.events * shared.tokenColumns];
        markerKeys = new int[at.events];
        expiries = new int[at.maxTicks + 1];
        expiryKnown = new boolean[at.maxTicks + 1];
    }

    private int rowWidth(int e) {
        int r = at.row(e);
        return STATUS_BITS + ownerBits + tokenBits + expiryBits;
    }

    private void addRow(Memo.KeyBuilder key, int[] s, int e) {
        int r = at.row(e);
        int expiry = s[r + EXPIRY];
        key.add(s[r + STATUS], STATUS_BITS).add(s[r + OWNER], ownerBits).add(fit(s[r + TOKEN], shared.tokenLimit, "token"), tokenBits)
                .add(expiry == PackedLayout.NEVER ? shared.expiryLimit - 1 : fit(expiry, shared.expiryLimit - 1, "expiry"), expiryBits);
    }

    /** The events a claim by poller {@code p} would take in {@code s}, as a bit mask, in outbox order. */
    int claimable(int[] s, int p) {
        Memo.KeyBuilder key = claimKey.reset();
        for (int e = 0; e < at.events; e++) {
            addRow(key, s, e);
        }
        key.add(fit(s[CLOCK], shared.clockLimit, "clock"), clockBits);
        if (shared.claimKnowsPoller) {
            key.add(p, POLLER_BITS);
        }
        int mask = claims.get(key.key);
        if (mask != Memo.MISSING) {
            return mask;
        }
        mask = 0;
        List<OutboxRow> outbox = new ArrayList<>();
        List<Integer> index = new ArrayList<>();
        for (int e = 0; e < at.events; e++) {
            if (s[at.row(e) + STATUS] != PackedLayout.ABSENT) {
                outbox.add(row(s, e));
                index.add(e);
            }
        }
        List<OutboxRow> view = List.copyOf(outbox);
        for (int k = 0, taken = 0; k < view.size() && taken < at.batch; k++) {
            if (logic.isClaimable(view.get(k), view, s[CLOCK], pollers.get(p), s[CLOCK])) { // no skew: the poller's clock is the database's
                mask |= 1 << index.get(k);
                taken++;
            }
        }
        claims.put(key.key, mask);
        return mask;
    }

    /** The token a claim by poller {@code p} writes on event {@code e}'s row, in {@code s} as the claim has left it so far. */
    int token(int[] s, int e, int p) {
        Memo.KeyBuilder key = tokenKey.reset();
        addRow(key, s, e);
        key.add(e, EVENT_BITS).add(fit(s[LAST_TOKEN], shared.tokenLimit, "token"), tokenBits);
        if (shared.tokenKnowsPoller) {
            key.add(p, POLLER_BITS);
        }
        int token = tokens.get(key.key);
        if (token != Memo.MISSING) {
            return token;
        }
        long issued = logic.issueToken(row(s, e), s[LAST_TOKEN], pollers.get(p));
        if (issued < 0 || issued >= shared.tokenLimit) {
            throw new PackedSpace.Overflow("logic " + logic.id() + " issued token t" + issued + ", past the t"
                    + (shared.tokenLimit - 1) + " the packed tables hold");
        }
        tokens.put(key.key, (int) issued);
        return (int) issued;
    }

    /** The expiry a claim at {@code now} writes. */
    int expiry(int now) {
        if (now >= expiries.length) { // a healing run ticks past the search's clock bound
            expiries = Arrays.copyOf(expiries, 2 * now);
            expiryKnown = Arrays.copyOf(expiryKnown, 2 * now);
        }
        if (!expiryKnown[now]) {
            expiries[now] = logic.leaseExpiry(now, shared.scenario.leaseTicks(), now);
            expiryKnown[now] = true;
        }
        return expiries[now];
    }

    /** Whether the logic accepts poller {@code p}'s ack of event {@code e} under {@code token} in {@code s}. */
    boolean acceptsAck(int[] s, int e, int token, int p) {
        return fence(acks, shared.ackKnowsContext, s, e, token, p, true);
    }

    /** Whether the logic accepts poller {@code p}'s release of event {@code e} under {@code token} in {@code s}. */
    boolean acceptsRelease(int[] s, int e, int token, int p) {
        return fence(releases, shared.releaseKnowsContext, s, e, token, p, false);
    }

    private boolean fence(Memo memo, boolean context, int[] s, int e, int token, int p, boolean ack) {
        Memo.KeyBuilder key = fenceKey.reset();
        addRow(key, s, e);
        key.add(e, EVENT_BITS).add(fit(token, shared.tokenLimit, "token"), tokenBits);
        if (context) {
            key.add(p, POLLER_BITS).add(fit(s[CLOCK], shared.clockLimit, "clock"), clockBits);
        }
        int known = memo.get(key.key);
        if (known != Memo.MISSING) {
            return known != 0;
        }
        OutboxRow row = row(s, e);
        boolean accepts = ack ? logic.acceptsAck(row, token, pollers.get(p), s[CLOCK])
                : logic.acceptsRelease(row, token, pollers.get(p), s[CLOCK]);
        memo.put(key.key, accepts ? 1 : 0);
        return accepts;
    }

    /** {@link Shared#keyId}, read from this worker's copy once known (a plain read, not a volatile one). */
    int keyId(int e, int token) {
        int at = e * shared.tokenColumns + (int) fit(token, shared.tokenColumns, "token");
        int id = keyIds[at];
        if (id == 0) {
            id = shared.keyId(e, token);
            keyIds[at] = id;
        }
        return id;
    }

    /** {@link Shared#markerKeyId}, through this worker's copy. */
    int markerKeyId(int e, int markerToken) {
        if (shared.markerTokens) {
            return keyId(e, markerToken);
        }
        int id = markerKeys[e];
        if (id == 0) {
            id = shared.markerKeyId(e, markerToken);
            markerKeys[e] = id;
        }
        return id;
    }

    /** Bytes its memories take. */
    long bytes() {
        return claims.bytes() + tokens.bytes() + acks.bytes() + releases.bytes();
    }

    /** Event {@code e}'s row as the readable model holds it. */
    private OutboxRow row(int[] s, int e) {
        int r = at.row(e);
        RowStatus status = s[r + STATUS] == PENDING ? RowStatus.PENDING : RowStatus.DELIVERED;
        Lease lease = s[r + OWNER] == 0 ? null : new Lease(pollers.get(s[r + OWNER] - 1), s[r + TOKEN], s[r + EXPIRY]);
        return new OutboxRow(events.get(e), status, lease);
    }
}
