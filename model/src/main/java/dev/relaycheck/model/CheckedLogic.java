package dev.relaycheck.model;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Holds a user's logic to its contract, a pure function of its arguments, around every decision the model
 * asks of it. The first answer to each question (method and arguments, compared with equals) is asked twice
 * and remembered; every later asking compares the fresh answer with the remembered one. A different answer
 * is a {@link NonDeterminism}; an exception (or a null answer) is a {@link LogicError}; both name the method
 * and its arguments in relay terms. The memory is looked up only, never iterated, so it shapes no output.
 *
 * <p>What it catches: a logic that answers a question differently within one run (a random answer, a counter
 * that changes the answer after some calls), as soon as the question is asked again, which the searches do
 * constantly (every state with the same row asks the same ack question). What it cannot catch: a logic that
 * is consistent within a run but differs between runs (seeded from the wall clock once, then fixed).
 *
 * <p>Whether a question comes again before the search stops depends on the order it asks in: a logic whose
 * wrong answer to a new question makes a violation would stop the search before the old one is re-asked. So
 * the searches end with {@link #recheck()}, which asks every remembered question once more.
 *
 * <p>The {@link Shipped} logics are known to be pure and skip the check ({@link #of} returns them as they are), so the
 * reference counts and speed stay as they were.
 */
public final class CheckedLogic implements RelayLogic {
    /** Questions remembered at most; past it a first answer is still asked twice, but not remembered. */
    static final int MEMORY_BOUND = 1 << 18;

    private final RelayLogic delegate;
    // looked up while searching; iterated only by recheck, which reports the least of all it finds
    private final Map<Question, Remembered> answers = new ConcurrentHashMap<>();

    private CheckedLogic(RelayLogic delegate) {
        this.delegate = delegate;
    }

    /** The logic checked: a {@link Shipped} logic (by exact class: the annotation is not inherited) or an already checked one as it is, else wrapped. */
    public static RelayLogic of(RelayLogic logic) {
        if (logic instanceof CheckedLogic || logic.getClass().isAnnotationPresent(Shipped.class)) {
            return logic;
        }
        return new CheckedLogic(logic);
    }

    /** The logic a checked one wraps, or {@code logic} itself. */
    public static RelayLogic unwrap(RelayLogic logic) {
        return logic instanceof CheckedLogic c ? c.delegate : logic;
    }

    /** A question: the method and its arguments, which print in relay terms. */
    private record Question(String method, List<Object> arguments) {
        @Override
        public String toString() {
            return method + "(" + arguments.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
        }
    }

    /** Arguments that are numbers of one kind print as what they mean. */
    private record Token(long value) {
        @Override
        public String toString() {
            return "t" + value;
        }
    }

    /** An event compares whole (two scenarios may both have an E1) but prints as its id. */
    private record EventArgument(Event event) {
        @Override
        public String toString() {
            return event.id();
        }
    }

    /** A first answer and how to ask its question again. */
    private record Remembered(Object answer, Supplier<?> call) {
    }

    private record Named(String name, long value) {
        @Override
        public String toString() {
            return name + "=" + value;
        }
    }

    private <T> T ask(Supplier<T> call, String method, Object... arguments) {
        Question q = new Question(method, List.of(arguments));
        T answer = call(q, call);
        Remembered first = answers.get(q);
        if (first == null) {
            T again = call(q, call); // asked twice at once: a drawn answer is caught where it is first drawn
            if (!again.equals(answer)) {
                throw new NonDeterminism(id(), method, q.toString(), answer, again);
            }
            if (answers.size() >= MEMORY_BOUND) {
                return answer;
            }
            first = answers.putIfAbsent(q, new Remembered(answer, call));
            if (first == null) {
                return answer;
            }
        }
        if (!first.answer().equals(answer)) {
            throw new NonDeterminism(id(), method, q.toString(), first.answer(), answer);
        }
        return answer;
    }

    /**
     * Asks every remembered question once more (at most {@link #MEMORY_BOUND} calls) and returns the failure of
     * the question whose line sorts first, if any question is answered differently now (or throws). All are
     * asked and the least is kept, so the report does not depend on the memory's hash order, nor, with several
     * threads, on the order the questions were first asked in.
     */
    public Optional<LogicFailure> recheck() {
        LogicFailure least = null;
        for (Map.Entry<Question, Remembered> e : answers.entrySet()) {
            Question q = e.getKey();
            LogicFailure failure;
            try {
                Object now = call(q, e.getValue().call());
                if (now.equals(e.getValue().answer())) {
                    continue;
                }
                failure = new NonDeterminism(id(), q.method(), q.toString(), e.getValue().answer(), now);
            } catch (LogicFailure f) {
                failure = f;
            }
            if (least == null || BY_LINE.compare(failure, least) < 0) {
                least = failure;
            }
        }
        return Optional.ofNullable(least);
    }

    private static final Comparator<LogicFailure> BY_LINE = Comparator.comparing(LogicFailure::line);

    private <T> T call(Question q, Supplier<T> call) {
        T answer;
        Object outer = DecisionWatch.enter(id(), q.method(), q); // a question that never returns still gets a verdict
        try {
            answer = call.get();
        } catch (RuntimeException | AssertionError | StackOverflowError | LinkageError e) {
            throw new LogicError(id(), q.method(), q.toString(), "threw " + describe(e), e);
        } finally {
            DecisionWatch.leave(outer);
        }
        if (answer == null) {
            throw new LogicError(id(), q.method(), q.toString(), "answered null", null);
        }
        return answer;
    }

    /** The exception and where the logic threw it: its first frame (deterministic, unlike a whole trace). */
    private static String describe(Throwable e) {
        StackTraceElement[] frames = e.getStackTrace();
        return e + (frames.length == 0 ? "" : " (at " + frames[0] + ")");
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public String description() {
        return delegate.description();
    }

    @Override
    public Optional<Invariant> expectedViolation() {
        return delegate.expectedViolation();
    }

    @Override
    public ProducerShape producerShape() {
        return ask(delegate::producerShape, "producerShape");
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
        return ask(() -> delegate.isClaimable(row, outbox, now), "isClaimable", row, outbox, new Named("now", now));
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller) {
        return ask(() -> delegate.isClaimable(row, outbox, now, poller), "isClaimable", row, outbox,
                new Named("now", now), poller);
    }

    /** Asked under the four-argument question when the poller's clock is the database's, so those questions read as before. */
    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now, String poller, int pollerClock) {
        if (pollerClock == now) {
            return ask(() -> delegate.isClaimable(row, outbox, now, poller, pollerClock), "isClaimable", row, outbox,
                    new Named("now", now), poller);
        }
        return ask(() -> delegate.isClaimable(row, outbox, now, poller, pollerClock), "isClaimable", row, outbox,
                new Named("now", now), poller, new Named("pollerClock", pollerClock));
    }

    @Override
    public int leaseExpiry(int now, int leaseTicks, int pollerClock) {
        if (pollerClock == now) {
            return ask(() -> delegate.leaseExpiry(now, leaseTicks, pollerClock), "leaseExpiry", new Named("now", now),
                    new Named("leaseTicks", leaseTicks));
        }
        return ask(() -> delegate.leaseExpiry(now, leaseTicks, pollerClock), "leaseExpiry", new Named("now", now),
                new Named("leaseTicks", leaseTicks), new Named("pollerClock", pollerClock));
    }

    @Override
    public boolean acceptsRenewal(OutboxRow row, long token, String poller, int now) {
        return ask(() -> delegate.acceptsRenewal(row, token, poller, now), "acceptsRenewal", row, new Token(token), poller,
                new Named("now", now));
    }

    @Override
    public CursorRule cursorRule() {
        return ask(delegate::cursorRule, "cursorRule");
    }

    @Override
    public ClaimShape claimShape() {
        return ask(delegate::claimShape, "claimShape");
    }

    @Override
    public long issueToken(OutboxRow row, long lastIssued) {
        return ask(() -> delegate.issueToken(row, lastIssued), "issueToken", row, new Named("lastIssued", lastIssued));
    }

    @Override
    public long issueToken(OutboxRow row, long lastIssued, String poller) {
        return ask(() -> delegate.issueToken(row, lastIssued, poller), "issueToken", row,
                new Named("lastIssued", lastIssued), poller);
    }

    @Override
    public int leaseExpiry(int now, int leaseTicks) {
        return ask(() -> delegate.leaseExpiry(now, leaseTicks), "leaseExpiry", new Named("now", now),
                new Named("leaseTicks", leaseTicks));
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token) {
        return ask(() -> delegate.acceptsAck(row, token), "acceptsAck", row, new Token(token));
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token, String poller, int now) {
        return ask(() -> delegate.acceptsAck(row, token, poller, now), "acceptsAck", row, new Token(token), poller,
                new Named("now", now));
    }

    @Override
    public boolean acceptsRelease(OutboxRow row, long token) {
        return ask(() -> delegate.acceptsRelease(row, token), "acceptsRelease", row, new Token(token));
    }

    @Override
    public boolean acceptsRelease(OutboxRow row, long token, String poller, int now) {
        return ask(() -> delegate.acceptsRelease(row, token, poller, now), "acceptsRelease", row, new Token(token),
                poller, new Named("now", now));
    }

    @Override
    public boolean acksBeforeDelivering() {
        return ask(delegate::acksBeforeDelivering, "acksBeforeDelivering");
    }

    @Override
    public TokenPolicy tokenPolicy() {
        return ask(delegate::tokenPolicy, "tokenPolicy");
    }

    @Override
    public boolean deliversAndAcksTogether() {
        return ask(delegate::deliversAndAcksTogether, "deliversAndAcksTogether");
    }

    @Override
    public String dedupKey(Event event, long deliveryToken) {
        return ask(() -> delegate.dedupKey(event, deliveryToken), "dedupKey", new EventArgument(event),
                new Token(deliveryToken));
    }

    @Override
    public boolean consumerChecksMarker() {
        return ask(delegate::consumerChecksMarker, "consumerChecksMarker");
    }

    @Override
    public ConsumerShape consumerShape() {
        return ask(delegate::consumerShape, "consumerShape");
    }

    // the settle decisions (retention, ack scope, settle result): delegated and checked like the others

    @Override
    public OptionalInt markerRetention(int leaseTicks) {
        return ask(() -> delegate.markerRetention(leaseTicks), "markerRetention", new Named("leaseTicks", leaseTicks));
    }

    @Override
    public List<String> rowsAckTouches(OutboxRow acked, long token, String poller, List<Held> batch, List<OutboxRow> outbox) {
        return ask(() -> List.copyOf(delegate.rowsAckTouches(acked, token, poller, batch, outbox)), "rowsAckTouches", acked,
                new Token(token), poller, batch, outbox);
    }

    @Override
    public boolean readsSettleResult() {
        return ask(delegate::readsSettleResult, "readsSettleResult");
    }

    @Override
    public boolean unlocksAfterSettling() {
        return ask(delegate::unlocksAfterSettling, "unlocksAfterSettling");
    }

    @Override
    public boolean cleanupTakes(OutboxRow row, int now) {
        return ask(() -> delegate.cleanupTakes(row, now), "cleanupTakes", row, new Named("now", now));
    }
}
