package dev.relaycheck.code.control;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lets one actor go at a time. Every actor thread waits at its scheduling points ({@link #arrive}); relaycheck
 * lets one go ({@link #let}) and then waits until every actor is again at a point, finished, or blocked (on a row
 * lock, as the database says, or on a Java lock another actor holds): {@link #settle}. So what the relay does
 * between two points runs alone, and the schedule -- which actor went at each point -- decides the run.
 */
public final class Conductor {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Object lock = new Object();
    private final List<Actor> actors = new ArrayList<>();
    private final Map<Thread, Actor> byThread = new IdentityHashMap<>();
    private final LockWaits lockWaits;
    private final long boundNanos;

    /**
     * @param lockWaits  how to ask the database which sessions wait on a lock
     * @param boundNanos how long an actor may run between two points before the run is reported as not progressing
     *                   (a relay that loops); a bound, never a verdict by itself
     */
    public Conductor(LockWaits lockWaits, long boundNanos) {
        this.lockWaits = lockWaits;
        this.boundNanos = boundNanos;
    }

    public LockWaits lockWaits() {
        return lockWaits;
    }

    /** The actor of the calling thread for {@code participant}, registered on its first point. */
    public Actor current(Participant participant) {
        synchronized (lock) {
            Actor a = byThread.get(Thread.currentThread());
            if (a == null) {
                a = new Actor(participant, participant.nextThreadLabel(), Thread.currentThread());
                actors.add(a);
                byThread.put(a.thread, a);
            }
            return a;
        }
    }

    /**
     * Registers the thread relaycheck is about to start for {@code participant}, so that {@link #settle} waits for it
     * to reach its first point.
     */
    public Actor register(Participant participant, Thread thread) {
        synchronized (lock) {
            Actor a = new Actor(participant, participant.nextThreadLabel(), thread);
            actors.add(a);
            byThread.put(thread, a);
            return a;
        }
    }

    /** Waits at {@code point} until relaycheck lets {@code actor} go; returns what it may do. */
    public Permit arrive(Actor actor, Point point) {
        synchronized (lock) {
            actor.waiting = point;
            actor.retrying = false;
            actor.starting = false;
            lock.notifyAll();
            boolean interrupted = false;
            while (actor.permit == null) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // only relaycheck ends an actor, with a permit
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            Permit p = actor.permit;
            actor.permit = null;
            return p;
        }
    }

    /** The thread of {@code actor} has ended. */
    public void finished(Actor actor) {
        synchronized (lock) {
            actor.finished = true;
            lock.notifyAll();
        }
    }

    /** Lets {@code actor}, which waits at a point, do {@code permit}. */
    public void let(Actor actor, Permit permit) {
        synchronized (lock) {
            if (actor.waiting == null) {
                throw new IllegalStateException(actor + " is not waiting at a point");
            }
            actor.waiting = null;
            actor.permit = permit;
            lock.notifyAll();
        }
    }

    /** The actors waiting at a point, by participant then thread label: the order choices are listed in. */
    public List<Waiting> waiting() {
        synchronized (lock) {
            return actors.stream().filter(a -> a.waiting != null)
                    .sorted(Comparator.comparingInt((Actor a) -> a.participant().number()).thenComparing(Actor::label))
                    .map(a -> new Waiting(a, a.waiting)).toList();
        }
    }

    /** An actor and where it waits. */
    public record Waiting(Actor actor, Point point) {
    }

    /** What {@link #settle} found. */
    public sealed interface Settled {
        /** Every actor waits at a point or has ended, but {@code blocked}, which wait on locks. */
        record Quiet(List<Actor> blocked) implements Settled {
        }

        /** {@code running} ran past the bound without reaching a point; {@code stacks} are where they were. */
        record NoProgress(List<Actor> running, List<String> stacks) implements Settled {
        }
    }

    /** Waits until every actor waits at a point, has ended or is blocked. */
    public Settled settle() throws SQLException {
        long deadline = System.nanoTime() + boundNanos;
        Map<Actor, String> parkedAt = new IdentityHashMap<>(); // where each seemed parked at the last look, and since when
        Map<Actor, Integer> parkedLooks = new IdentityHashMap<>();
        int looks = 0;
        List<Actor> stuck;
        while (true) {
            List<Actor> running = running();
            if (running.isEmpty()) {
                return new Settled.Quiet(List.of());
            }
            if (looks++ < 20) { // most steps reach their next point within microseconds
                pause(50_000);
                continue;
            }
            Set<Long> waitingOnRows = lockWaits.blocked();
            synchronized (lock) {
                List<Actor> now = running();
                if (now.isEmpty()) {
                    return new Settled.Quiet(List.of());
                }
                List<Actor> free = new ArrayList<>();
                for (Actor a : now) {
                    boolean blocked = a.permit == null && !a.starting && (waitingOnRows.contains(a.session) || retriesOnLock(a)
                            || javaBlocked(a, parkedAt, parkedLooks));
                    if (!blocked) {
                        free.add(a);
                    }
                }
                if (free.isEmpty()) {
                    return new Settled.Quiet(now);
                }
                stuck = System.nanoTime() > deadline ? free : null;
            }
            if (stuck != null) { // their stacks read outside the lock, where an actor may wait for it
                pause(5_000_000);
                List<Actor> still = stuck.stream().filter(a -> running().contains(a)).toList();
                if (!still.isEmpty()) {
                    return new Settled.NoProgress(still, still.stream().map(a -> stack(a.thread) + "\n    (database sessions waiting on "
                            + "a lock: " + waitingOnRows + "; its session " + a.session + ")").toList());
                }
            }
            pause(looks < 200 ? 1_000_000 : 5_000_000);
        }
    }

    /** Running: not ended, not waiting at a point (an actor let go but not yet awake runs). */
    private List<Actor> running() {
        synchronized (lock) {
            List<Actor> out = new ArrayList<>();
            for (Actor a : actors) {
                if (!a.finished && a.thread.getState() != Thread.State.TERMINATED && a.waiting == null) {
                    out.add(a);
                }
            }
            return out;
        }
    }

    private void pause(long nanos) {
        synchronized (lock) {
            try {
                lock.wait(nanos / 1_000_000, (int) (nanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * An actor seen in its database's retry loop waits there until another actor's transaction ends; it stays so
     * while its stack is still in the statement (the loop passes through frames that do not show the retry).
     */
    private boolean retriesOnLock(Actor a) {
        StackTraceElement[] stack = a.thread.getStackTrace();
        if (lockWaits.retriesOnLock(stack)) {
            a.retrying = true;
        } else if (a.retrying && java.util.Arrays.stream(stack).noneMatch(f -> f.getClassName().startsWith("org.h2.command.Command"))) {
            a.retrying = false;
        }
        return a.retrying;
    }

    /**
     * Blocked on something only another actor can free: a monitor or lock another actor's thread holds, or a park
     * (an idle pool worker, a wait for a future) seen at the same frame on three looks in a row. A sleeping thread
     * wakes by itself, and a permit not yet taken up means the actor is about to run: neither is blocked.
     */
    private boolean javaBlocked(Actor a, Map<Actor, String> parkedAt, Map<Actor, Integer> parkedLooks) {
        if (a.permit != null) {
            return false;
        }
        var info = THREADS.getThreadInfo(a.thread.getId(), 2);
        if (info == null) {
            return false;
        }
        Thread.State s = info.getThreadState();
        if (s != Thread.State.BLOCKED && s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
            parkedLooks.remove(a);
            return false;
        }
        StackTraceElement[] top = info.getStackTrace();
        if (top.length > 0 && top[0].getClassName().equals("java.lang.Thread") && top[0].getMethodName().startsWith("sleep")) {
            return false;
        }
        long owner = info.getLockOwnerId();
        if (owner != -1) {
            return actors.stream().anyMatch(o -> o != a && o.thread.getId() == owner);
        }
        String at = top.length == 0 ? "" : top[0].toString() + (top.length > 1 ? top[1] : "");
        boolean same = at.equals(parkedAt.put(a, at));
        int seen = same ? parkedLooks.merge(a, 1, Integer::sum) : 1;
        if (!same) {
            parkedLooks.put(a, 1);
        }
        return seen >= 3;
    }

    private static String stack(Thread t) {
        StringBuilder b = new StringBuilder(t.getName() + " (" + t.getState() + ")");
        var info = THREADS.getThreadInfo(t.getId(), 24);
        StackTraceElement[] frames = info == null ? t.getStackTrace() : info.getStackTrace();
        for (StackTraceElement f : frames) {
            b.append("\n    at ").append(f);
        }
        return b.toString();
    }
}
