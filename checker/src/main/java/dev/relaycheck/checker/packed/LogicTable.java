package dev.relaycheck.checker.packed;

import dev.relaycheck.checker.space.CanonicalTokens;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Healing;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.LogicFailure;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic.ClaimShape;
import dev.relaycheck.model.RelayLogic.ConsumerShape;
import dev.relaycheck.model.RelayLogic.CursorRule;
import dev.relaycheck.model.RelayLogic.ProducerShape;
import dev.relaycheck.model.RelayLogic.TokenPolicy;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Scenario;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static dev.relaycheck.checker.packed.PackedLayout.CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.EXPIRY;
import static dev.relaycheck.checker.packed.PackedLayout.LAST_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.LEASE_CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.OWNER;
import static dev.relaycheck.checker.packed.PackedLayout.PENDING;
import static dev.relaycheck.checker.packed.PackedLayout.STATUS;
import static dev.relaycheck.checker.packed.PackedLayout.TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.VERSION;

/**
 * The decisions of a logic the packed engine does not know (a user's), memoised over the finite domain of a
 * scenario. A logic's decisions are pure functions of their arguments (its contract, which
 * {@link CheckedLogic} holds it to), and in a scenario every argument ranges over a small
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
            throw new Overflow("a " + what + " of " + value + " is past the " + (limit - 1) + " the packed tables hold");
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
        /** Per event, whether its key depends on the token (the row keeps its marker's token only then). */
        final boolean[] keyedByToken;
        /**
         * Whether every event has one key, of its own (no event's key depends on the token, and no two events share
         * one): a delivery's key is then found among the markers exactly where its own event's marker is.
         */
        final boolean distinctKeys;
        final boolean claimKnowsPoller;
        final boolean tokenKnowsPoller;
        final boolean ackKnowsContext;
        final boolean releaseKnowsContext;
        /** The instance id each poller presents: the lease owner it writes and the poller every decision is told of. */
        final List<String> instanceIds;
        /** Whether the consumer dates its markers ({@code RelayModel.datesMarkers}). */
        final boolean datesMarkers;
        // a dedup key's id per (event, token), 0 while unknown; looked up only, never iterated
        private final Map<String, Integer> keyIds = new ConcurrentHashMap<>();
        private final AtomicInteger lastKeyId = new AtomicInteger();
        private final Map<Integer, String> keyNames = new ConcurrentHashMap<>(); // the key of each id; looked up only
        private AtomicIntegerArray keyIdByEventToken; // sized by the layout's token bound
        private int tokenColumns;
        private final AtomicIntegerArray keyOfEvent; // without marker tokens: the one key id of each event's marker

        /** Whether states hold their tokens renumbered canonically (each its rank among the state's tokens). */
        final boolean renumbers;

        /** Asks the logic its shapes; throws the {@link LogicFailure} of a logic that fails on them. */
        Shared(RelayModel model) {
            this(model, false);
        }

        /** The same, for states whose tokens are renumbered canonically ({@code renumbers}). */
        Shared(RelayModel model, boolean renumbers) {
            this.renumbers = renumbers;
            logic = model.logic();
            scenario = model.scenario();
            shapes = Shapes.of(logic, scenario.leaseTicks());
            checkThenAct = shapes.checkThenAct();
            maxTicks = model.maxTicks();
            grantedLease = model.grantedLease();
            healingBound = Healing.bound(model);
            Class<?> user = CheckedLogic.unwrap(logic).getClass();
            claimKnowsPoller = readsContext(user, "isClaimable");
            tokenKnowsPoller = readsContext(user, "issueToken");
            ackKnowsContext = readsContext(user, "acceptsAck");
            releaseKnowsContext = readsContext(user, "acceptsRelease");
            keyedByToken = keyedByToken(logic, scenario.events());
            boolean any = false;
            for (boolean keyed : keyedByToken) {
                any |= keyed;
            }
            markerTokens = any;
            distinctKeys = !any && distinctKeys(logic, scenario.events());
            keyOfEvent = new AtomicIntegerArray(scenario.events().size());
            instanceIds = scenario.pollers().stream().map(scenario::instanceId).toList();
            datesMarkers = model.datesMarkers();
        }

        /** The instance id a lease's owner code stands for ({@link PackedModel#ownerCode}). */
        String ownerName(int code) {
            return instanceIds.get(code - 1);
        }

        /** What the layout of this logic's states holds beside the scenario's bounds. */
        PackedLayout.Spec layoutSpec() {
            PackedLayout.Spec exact = new PackedLayout.Spec(maxTicks, checkThenAct, markerTokens,
                    Math.max(scenario.leaseTicks(), grantedLease), shapes.perRowVersion(), datesMarkers, shapes.retention() >= 0,
                    keepsCursor(scenario, shapes), CanonicalTokens.exactBound(scenario, maxTicks));
            return renumbers ? exact.renumbered(scenario) : exact;
        }

        /**
         * Sizes the keys by what a question's arguments can be (before any worker starts): in the search, the
         * layout's bounds; a healing run goes further, a tick or a claim each step, on a scratch never packed.
         */
        void sizeFor(PackedLayout at) {
            clockLimit = at.maxTicks + healingBound + 1;
            // renumbered, a token is a rank but for the moment between a claim and the renumbering after it
            tokenLimit = renumbers ? 1 << 20 : at.tokens + healingBound * at.batch + 1;
            expiryLimit = clockLimit + Math.max(scenario.leaseTicks(), grantedLease) + scenario.maxSkew() + 2; // the last: NEVER
            tokenColumns = tokenLimit;
            keyIdByEventToken = new AtomicIntegerArray(at.events * tokenColumns);
        }

        int clockLimit;
        int tokenLimit;
        int expiryLimit;

        /** Whether the events' keys (under token 1) differ from one another; false where the logic fails to say. */
        private static boolean distinctKeys(RelayLogic logic, List<Event> events) {
            try {
                return events.stream().map(e -> logic.dedupKey(e, 1)).distinct().count() == events.size();
            } catch (LogicFailure f) {
                return false;
            }
        }

        /**
         * Per event, whether the logic's dedup key differs between deliveries under tokens 1 and 2 (or it fails
         * to say: then the layout keeps the tokens, and the search meets the failure where the readable model
         * would). It only shapes the layout: a key found to depend on the token later stops the packed search,
         * and the readable model runs it.
         */
        private static boolean[] keyedByToken(RelayLogic logic, List<Event> events) {
            boolean[] keyed = new boolean[events.size()];
            try {
                for (int e = 0; e < keyed.length; e++) {
                    keyed[e] = !logic.dedupKey(events.get(e), 1).equals(logic.dedupKey(events.get(e), 2));
                }
            } catch (LogicFailure f) {
                Arrays.fill(keyed, true);
            }
            return keyed;
        }

        /**
         * Whether {@code user}'s answer to decision {@code name} can depend on the context (the poller, the clock)
         * that only its longer overloads are given: whether it declares any of them, anywhere but in the
         * interface, whose defaults only pass the question on to the shorter form. The model asks the longest
         * form, whichever of them a class overrides.
         */
        static boolean readsContext(Class<?> user, String name) {
            int shortest = Integer.MAX_VALUE;
            for (Method m : RelayLogic.class.getMethods()) {
                if (m.getName().equals(name)) {
                    shortest = Math.min(shortest, m.getParameterCount());
                }
            }
            for (Method m : RelayLogic.class.getMethods()) {
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
            if (!keyedByToken[event] && !keyOfEvent.compareAndSet(event, 0, id) && keyOfEvent.get(event) != id) {
                throw new Overflow("logic " + logic.id() + " keys the marker of "
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
            if (keyedByToken[event]) {
                return keyId(event, markerToken);
            }
            int id = keyOfEvent.get(event);
            if (id == 0) {
                throw new IllegalStateException("internal error: no dedup key known for applied event " + event);
            }
            return id;
        }
    }

    /**
     * The logic's constant answers: how it commits, in which order a poller works, where its tokens come from,
     * how long it keeps markers, what a poller does with an ack's result, how it finds rows, which rows an ack marks.
     * {@code retention} is -1 for markers kept for ever; {@code deliversAndAcks} is the one-transaction delivery as
     * the model honours it (only with the one-transaction consumer and delivery before the ack).
     */
    record Shapes(boolean splitProducer, boolean checkThenAct, boolean acksFirst, boolean checksMarker,
                  ConsumerShape consumer, boolean perRowVersion, boolean deliversAndAcks, int retention,
                  boolean unlocksUnread, CursorRule cursor, boolean acksTouchOthers) {
        static Shapes of(RelayLogic logic, int leaseTicks) {
            boolean together = logic.deliversAndAcksTogether() && !logic.acksBeforeDelivering()
                    && logic.consumerShape() == ConsumerShape.ONE_TRANSACTION;
            return new Shapes(logic.producerShape() == ProducerShape.BUSINESS_THEN_OUTBOX,
                    logic.claimShape() == ClaimShape.CHECK_THEN_ACT, logic.acksBeforeDelivering(),
                    logic.consumerChecksMarker(), logic.consumerShape(), logic.tokenPolicy() == TokenPolicy.PER_ROW_VERSION,
                    together, logic.markerRetention(leaseTicks).orElse(-1),
                    logic.unlocksAfterSettling() && !logic.readsSettleResult(), logic.cursorRule(),
                    overrides(CheckedLogic.unwrap(logic), "rowsAckTouches"));
        }
    }

    /** Whether a cursor relay keeps its cursor in this scenario: only overlapping producers can commit below it. */
    static boolean keepsCursor(Scenario scenario, Shapes shapes) {
        return shapes.cursor() != CursorRule.NONE && scenario.producersOverlap();
    }

    /** Whether {@code logic}'s class (or a superclass short of the interface) declares {@code method}. */
    static boolean overrides(RelayLogic logic, String method) {
        for (Class<?> c = logic.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(method)) {
                    return true;
                }
            }
        }
        return false;
    }

    final Shared shared;
    private final PackedLayout at;
    private final RelayLogic logic;
    private final List<Event> events;
    private final Memo claims;
    private final Memo tokens;
    private final Memo acks;
    private final Memo releases;
    private final Memo renewals;
    private final Memo cleanups;
    private final Memo touches;
    private final int clockBits;
    private final int tokenBits;
    private final int expiryBits;
    private final int ownerBits;
    private final int skewBits;
    private final Memo.KeyBuilder claimKey;
    private final Memo.KeyBuilder tokenKey;
    private final Memo.KeyBuilder fenceKey;
    private final Memo.KeyBuilder touchKey;
    private final int[] keyIds; // this worker's copy of the shared key ids per (event, token), 0 while unknown ...
    private final int[] markerKeys; // ... and per event, without marker tokens
    private final int skews; // skew values a poller's clock may have
    private int[] expiries; // per clock value and skew, the expiry a claim or renewal then writes ...
    private boolean[] expiryKnown; // ... once asked

    LogicTable(Shared shared, PackedLayout at) {
        this.shared = shared;
        this.at = at;
        this.logic = shared.logic;
        this.events = shared.scenario.events();
        clockBits = bits(shared.clockLimit);
        tokenBits = bits(shared.tokenLimit);
        expiryBits = bits(shared.expiryLimit);
        ownerBits = bits(at.pollers + 1);
        skews = 2 * at.maxSkew + 1;
        skewBits = bits(skews);
        int rowBits = at.events * rowWidth();
        int clock = clockBits;
        int token = tokenBits;
        boolean cursor = keepsCursor(shared.scenario, shared.shapes);
        claimKey = new Memo.KeyBuilder(rowBits + clock + (shared.claimKnowsPoller ? POLLER_BITS + skewBits : 0)
                + (cursor ? at.events : 0));
        tokenKey = new Memo.KeyBuilder(rowWidth() + EVENT_BITS + token + POLLER_BITS);
        fenceKey = new Memo.KeyBuilder(rowWidth() + EVENT_BITS + token + POLLER_BITS + clock);
        touchKey = new Memo.KeyBuilder(rowBits + EVENT_BITS + token + POLLER_BITS + bits(at.batch + 1) + at.batch * (EVENT_BITS + token));
        claims = new Memo(claimKey.width());
        tokens = new Memo(tokenKey.width());
        acks = new Memo(fenceKey.width());
        releases = new Memo(fenceKey.width());
        renewals = new Memo(fenceKey.width());
        cleanups = new Memo(fenceKey.width());
        touches = new Memo(touchKey.width());
        keyIds = new int[at.events * shared.tokenColumns];
        markerKeys = new int[at.events];
        expiries = new int[(at.maxTicks + 1) * skews];
        expiryKnown = new boolean[expiries.length];
    }

    /** Bits a row takes in a key: status, owner, token, expiry, the clock the expiry is on, version. */
    private int rowWidth() {
        return STATUS_BITS + ownerBits + tokenBits + expiryBits + (at.maxSkew > 0 ? skewBits : 0)
                + (shared.shapes.perRowVersion() ? tokenBits : 0);
    }

    private void addRow(Memo.KeyBuilder key, int[] s, int e) {
        int r = at.row(e);
        int expiry = s[r + EXPIRY];
        key.add(s[r + STATUS], STATUS_BITS).add(s[r + OWNER], ownerBits).add(fit(s[r + TOKEN], shared.tokenLimit, "token"), tokenBits)
                .add(expiry == PackedLayout.NEVER ? shared.expiryLimit - 1 : fit(expiry, shared.expiryLimit - 1, "expiry"), expiryBits);
        if (at.maxSkew > 0) {
            key.add(s[r + LEASE_CLOCK], skewBits);
        }
        if (shared.shapes.perRowVersion()) {
            key.add(fit(s[r + VERSION], shared.tokenLimit, "version"), tokenBits);
        }
    }

    /**
     * The events a claim by poller {@code p}, whose clock is off by {@code skew} ticks, would take in {@code s}: the
     * first {@link PackedLayout#batch} of the rows in {@code admitted} (a cursor relay's cursor lets it see; all
     * otherwise) that the logic calls claimable, in outbox order, as a bit mask.
     */
    int claimable(int[] s, int p, int skew, int admitted) {
        Memo.KeyBuilder key = claimKey.reset();
        for (int e = 0; e < at.events; e++) {
            addRow(key, s, e);
        }
        key.add(fit(s[CLOCK], shared.clockLimit, "clock"), clockBits);
        if (shared.claimKnowsPoller) {
            key.add(p, POLLER_BITS).add(skew + at.maxSkew, skewBits);
        }
        if (keepsCursor(shared.scenario, shared.shapes)) {
            key.add(admitted, at.events);
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
        String poller = shared.instanceIds.get(p);
        for (int k = 0, taken = 0; k < view.size() && taken < at.batch; k++) {
            if ((admitted >>> index.get(k) & 1) != 0 && logic.isClaimable(view.get(k), view, s[CLOCK], poller, s[CLOCK] + skew)) {
                mask |= 1 << index.get(k);
                taken++;
            }
        }
        claims.put(key.key, mask);
        return mask;
    }

    /**
     * The token a claim by poller {@code p} writes on event {@code e}'s row, in {@code s} as the claim has left it so
     * far: the logic is given the last token issued, or with per-row versions the row's version.
     */
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
        long last = shared.shapes.perRowVersion() ? s[at.row(e) + VERSION] : s[LAST_TOKEN];
        long issued = logic.issueToken(row(s, e), last, shared.instanceIds.get(p));
        if (issued < 0 || issued >= shared.tokenLimit) {
            throw new Overflow("logic " + logic.id() + " issued token t" + issued + ", past the t"
                    + (shared.tokenLimit - 1) + " the packed tables hold", true);
        }
        tokens.put(key.key, (int) issued);
        return (int) issued;
    }

    /** The expiry a claim or renewal at {@code now} writes, by a poller whose clock is off by {@code skew}. */
    int expiry(int now, int skew) {
        int at = now * skews + skew + this.at.maxSkew;
        if (at >= expiries.length) { // a healing run ticks past the search's clock bound
            expiries = Arrays.copyOf(expiries, 2 * (at + skews));
            expiryKnown = Arrays.copyOf(expiryKnown, expiries.length);
        }
        if (!expiryKnown[at]) {
            expiries[at] = logic.leaseExpiry(now, shared.scenario.leaseTicks(), now + skew);
            expiryKnown[at] = true;
        }
        return expiries[at];
    }

    /** Whether the logic accepts poller {@code p}'s ack of event {@code e} under {@code token} in {@code s}. */
    boolean acceptsAck(int[] s, int e, int token, int p) {
        return fence(acks, shared.ackKnowsContext, s, e, token, p, ACK);
    }

    /** Whether the logic accepts poller {@code p}'s release of event {@code e} under {@code token} in {@code s}. */
    boolean acceptsRelease(int[] s, int e, int token, int p) {
        return fence(releases, shared.releaseKnowsContext, s, e, token, p, RELEASE);
    }

    /** Whether the logic accepts poller {@code p}'s renewal of event {@code e}'s lease under {@code token} in {@code s}. */
    boolean acceptsRenewal(int[] s, int e, int token, int p) {
        return fence(renewals, true, s, e, token, p, RENEWAL); // its one form is told the poller and the clock
    }

    /** Whether the outbox cleanup, running now, deletes event {@code e}'s row. */
    boolean cleanupTakes(int[] s, int e) {
        Memo.KeyBuilder key = fenceKey.reset();
        addRow(key, s, e);
        key.add(e, EVENT_BITS).add(fit(s[CLOCK], shared.clockLimit, "clock"), clockBits);
        int known = cleanups.get(key.key);
        if (known != Memo.MISSING) {
            return known != 0;
        }
        boolean takes = logic.cleanupTakes(row(s, e), s[CLOCK]);
        cleanups.put(key.key, takes ? 1 : 0);
        return takes;
    }

    private static final int ACK = 0;
    private static final int RELEASE = 1;
    private static final int RENEWAL = 2;

    private boolean fence(Memo memo, boolean context, int[] s, int e, int token, int p, int what) {
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
        String poller = shared.instanceIds.get(p);
        boolean accepts = switch (what) {
            case ACK -> logic.acceptsAck(row, token, poller, s[CLOCK]);
            case RELEASE -> logic.acceptsRelease(row, token, poller, s[CLOCK]);
            default -> logic.acceptsRenewal(row, token, poller, s[CLOCK]);
        };
        memo.put(key.key, accepts ? 1 : 0);
        return accepts;
    }

    /**
     * The events other than {@code e} whose rows poller {@code p}'s accepted ack of {@code e} under {@code token} also
     * names ({@link RelayLogic#rowsAckTouches}), as a bit mask; {@code batch} is the slot of the poller's batch.
     */
    int rowsAckTouches(int[] s, int e, int token, int p, int batch) {
        Memo.KeyBuilder key = touchKey.reset();
        for (int o = 0; o < at.events; o++) {
            addRow(key, s, o);
        }
        key.add(e, EVENT_BITS).add(fit(token, shared.tokenLimit, "token"), tokenBits).add(p, POLLER_BITS);
        int held = s[batch + PackedLayout.HELD];
        key.add(held, bits(at.batch + 1));
        for (int k = 0; k < held; k++) {
            key.add(s[at.heldEvent(batch, k)], EVENT_BITS).add(fit(s[at.heldToken(batch, k)], shared.tokenLimit, "token"), tokenBits);
        }
        int known = touches.get(key.key);
        if (known != Memo.MISSING) {
            return known;
        }
        List<OutboxRow> outbox = new ArrayList<>();
        for (int o = 0; o < at.events; o++) {
            if (s[at.row(o) + STATUS] != PackedLayout.ABSENT) {
                outbox.add(row(s, o));
            }
        }
        List<Held> heldRows = new ArrayList<>();
        for (int k = 0; k < held; k++) {
            heldRows.add(new Held(events.get(s[at.heldEvent(batch, k)]).id(), s[at.heldToken(batch, k)]));
        }
        int mask = 0;
        for (String id : logic.rowsAckTouches(row(s, e), token, shared.instanceIds.get(p), List.copyOf(heldRows),
                List.copyOf(outbox))) {
            for (int o = 0; o < at.events; o++) {
                if (o != e && events.get(o).id().equals(id)) {
                    mask |= 1 << o;
                }
            }
        }
        touches.put(key.key, mask);
        return mask;
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
        if (shared.keyedByToken[e]) {
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
        return claims.bytes() + tokens.bytes() + acks.bytes() + releases.bytes() + renewals.bytes() + cleanups.bytes()
                + touches.bytes();
    }

    /** Event {@code e}'s row as the readable model holds it. */
    private OutboxRow row(int[] s, int e) {
        int r = at.row(e);
        RowStatus status = s[r + STATUS] == PENDING ? RowStatus.PENDING : RowStatus.DELIVERED;
        Lease lease = s[r + OWNER] == 0 ? null : new Lease(shared.ownerName(s[r + OWNER]), s[r + TOKEN], s[r + EXPIRY],
                at.leaseClock(s, r));
        return new OutboxRow(events.get(e), status, lease, s[r + VERSION]);
    }
}
