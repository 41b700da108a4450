package dev.relaycheck.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Which question a user's logic is answering, thread by thread, so that a logic that never returns, or ends the
 * JVM, still gets a verdict. {@link CheckedLogic} enters every question here; a watchdog thread reports a
 * question that has not returned within the {@linkplain #limit() time limit} as a {@link LogicError} to the
 * {@linkplain #onHang handler} the entry point installed (the CLI prints it and exits 6; the JUnit API fails the
 * test). An entry point's shutdown hook asks {@link #exitFromDecision()} whether a {@code System.exit} came from
 * inside a decision.
 *
 * <p>The limit is the only time-based element of a verdict: everything else depends on the logic, the scenario
 * and the seed alone. A decision that is merely slow on a loaded machine reads the same as one that loops, which
 * is why the message names the limit and how to raise it.
 */
public final class DecisionWatch {
    /** The limit unless {@code -Drelaycheck.decisionTimeout=SECONDS} or an entry point's option says otherwise. */
    public static final Duration DEFAULT_LIMIT = Duration.ofSeconds(10);

    private static volatile Duration limit = fromProperty();
    private static volatile Consumer<LogicError> handler = e -> System.err.println(e.line());

    private static final Set<Slot> SLOTS = ConcurrentHashMap.newKeySet(); // iterated by the watchdog alone
    private static final ThreadLocal<Slot> MINE = ThreadLocal.withInitial(DecisionWatch::register);
    private static Thread watchdog;

    private DecisionWatch() {
    }

    /** A thread's question in progress: written by that thread, read by the watchdog and the exit hook. */
    private static final class Slot {
        final Thread thread = Thread.currentThread();
        volatile String logicId;
        volatile String method;
        volatile Object question; // null: not in a decision
        volatile long since;
        volatile boolean reported;
    }

    private static Slot register() {
        Slot s = new Slot();
        SLOTS.add(s);
        startWatchdog();
        return s;
    }

    private static Duration fromProperty() {
        String p = System.getProperty("relaycheck.decisionTimeout");
        if (p == null || p.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            return parseSeconds(p);
        } catch (IllegalArgumentException e) {
            System.err.println("relaycheck: ignoring -Drelaycheck.decisionTimeout=" + p + ": " + e.getMessage());
            return DEFAULT_LIMIT;
        }
    }

    /** {@code "10"} or {@code "0.5"} seconds, as the options take them; at least a millisecond. */
    public static Duration parseSeconds(String seconds) {
        double s;
        try {
            s = Double.parseDouble(seconds.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the decision time limit is a number of seconds, not '" + seconds + "'");
        }
        if (!(s >= 0.001) || s > 86_400) {
            throw new IllegalArgumentException("the decision time limit must be between 0.001 and 86400 seconds, not " + seconds);
        }
        return Duration.ofNanos((long) (s * 1e9));
    }

    /** How long one decision may take before it is a LOGIC-ERROR. */
    public static Duration limit() {
        return limit;
    }

    public static void setLimit(Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("the decision time limit must be positive");
        }
        limit = d;
    }

    /** The limit as the messages print it: {@code 10 s}, {@code 0.5 s}. */
    public static String limitText() {
        double s = limit.toNanos() / 1e9;
        return (s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s)) + " s";
    }

    /**
     * Installs what is done with a decision that ran past the limit; returns what undoes it. The thread that
     * asked stays where it is (Java cannot stop it), so the handler ends the run: the process, or the test.
     */
    public static AutoCloseable onHang(Consumer<LogicError> h) {
        Consumer<LogicError> before = handler;
        handler = h;
        return () -> handler = before;
    }

    /** Marks the calling thread as answering {@code question}; returns what to pass to {@link #leave}. */
    static Object enter(String logicId, String method, Object question) {
        Slot s = MINE.get();
        Object outer = s.question; // a decision asked while answering another (never by the model; kept anyway)
        s.logicId = logicId;
        s.method = method;
        s.since = System.nanoTime();
        s.reported = false;
        s.question = question;
        return outer;
    }

    static void leave(Object outer) {
        Slot s = MINE.get();
        s.question = outer;
        s.since = System.nanoTime();
    }

    private static synchronized void startWatchdog() {
        if (watchdog != null) {
            return;
        }
        watchdog = new Thread(DecisionWatch::watch, "relaycheck-decision-watch");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void watch() {
        while (true) {
            long poll = Math.max(1, Math.min(100, limit.toMillis() / 10));
            try {
                Thread.sleep(poll);
            } catch (InterruptedException e) {
                return;
            }
            Slot late = null;
            long now = System.nanoTime();
            for (Slot s : SLOTS) {
                if (!s.thread.isAlive()) {
                    SLOTS.remove(s);
                } else if (s.question != null && !s.reported && now - s.since > limit.toNanos()
                        && (late == null || s.since < late.since)) {
                    late = s; // the longest-running one, if several ran past it together
                }
            }
            if (late != null) {
                late.reported = true;
                LogicError e = hung(late);
                if (late.question != null) { // it may have returned meanwhile
                    handler.accept(e);
                }
            }
        }
    }

    private static LogicError hung(Slot s) {
        Throwable where = new Throwable("the thread answering it, when the limit passed");
        where.setStackTrace(logicFrames(s.thread.getStackTrace()));
        return new LogicError(s.logicId, s.method, String.valueOf(s.question), "did not return within " + limitText()
                + " (the decision time limit: the one time-based limit in a verdict, so a machine too loaded to answer "
                + "in time reads the same; raise it with --decision-timeout SECONDS)", where, true);
    }

    /** The frames above relaycheck's wrapper: the logic's own code, and what it called. */
    static StackTraceElement[] logicFrames(StackTraceElement[] frames) {
        List<StackTraceElement> out = new ArrayList<>();
        for (StackTraceElement f : frames) {
            if (f.getClassName().startsWith(CheckedLogic.class.getName())) {
                break;
            }
            out.add(f);
        }
        return out.toArray(StackTraceElement[]::new);
    }

    /**
     * Called from a shutdown hook: the decision being answered by the thread that called {@code System.exit}
     * (or, if that thread is not found, by any thread), as one LOGIC-ERROR line naming the question and the
     * logic's frame that called exit; empty when no decision is being answered.
     */
    public static Optional<String> exitFromDecision() {
        Thread exiting = exitingThread().orElse(null);
        Slot found = null;
        for (Slot s : SLOTS) {
            if (s.question != null && (found == null || s.thread == exiting)) {
                found = s;
            }
        }
        if (found == null) {
            return Optional.empty();
        }
        String at = exiting == null ? "" : exitCaller(exiting.getStackTrace()).map(f -> " (at " + LogicError.frame(f) + ")").orElse("");
        return Optional.of("LOGIC-ERROR in logic " + found.logicId + ": " + found.question + " called System.exit" + at
                + ": a logic under test must not end the JVM (its exit code would have read as the check's verdict)");
    }

    /** The thread that called {@code System.exit} or {@code Runtime.exit}, while the shutdown runs. */
    public static Optional<Thread> exitingThread() {
        for (var e : Thread.getAllStackTraces().entrySet()) {
            if (exitCaller(e.getValue()).isPresent()) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    /** The frame that called {@code System.exit} or {@code Runtime.exit}, in a thread's stack. */
    public static Optional<StackTraceElement> exitCaller(StackTraceElement[] frames) {
        for (int i = 0; i + 1 < frames.length; i++) {
            StackTraceElement f = frames[i];
            boolean exit = f.getMethodName().equals("exit")
                    && (f.getClassName().equals("java.lang.Runtime") || f.getClassName().equals("java.lang.System"));
            if (exit && !frames[i + 1].getClassName().startsWith("java.lang.")) {
                return Optional.of(frames[i + 1]);
            }
        }
        return Optional.empty();
    }
}
