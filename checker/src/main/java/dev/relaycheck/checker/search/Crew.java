package dev.relaycheck.checker.search;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * A fixed team of threads that run the phases of a search together: {@link #run} hands each member its
 * index and returns when all are done; the calling thread is member 0. Between phases the others spin a
 * while before they park, because a search runs hundreds of phases a second and waking a parked thread
 * on a virtual machine takes up to a millisecond (an executor's submit and get cost soak about a second
 * on two threads). They spin only when the crew fits the cores, so a spinning member never keeps a working
 * one off a core, and past 50 microseconds they yield the core between looks (a loaded machine). A member's exception is rethrown by {@link #run} once every member is done.
 * {@link #forEach} deals items out to whichever member is free, so members that finish early take up the
 * rest instead of waiting.
 */
final class Crew implements AutoCloseable {
    private final int size;
    private final long spinNanos; // a pause between two phases is far shorter than 20 ms
    private final Thread[] members;
    private final AtomicInteger running = new AtomicInteger();
    private volatile IntConsumer task;
    private volatile int phase; // bumped by each run, after its task is set
    private volatile boolean closed;
    private volatile RuntimeException failure;
    private volatile Thread caller;
    private final AtomicInteger nextItem = new AtomicInteger();

    /** A crew of {@code size} members: this thread and {@code size - 1} daemon threads named after {@code name}. */
    Crew(int size, String name) {
        this(size, name, true);
    }

    /** The same; {@code adapts} false: every run of {@link #forEach} not asked to go alone runs on every member. */
    Crew(int size, String name, boolean adapts) {
        this.size = size;
        this.adapts = adapts;
        spinNanos = size <= Runtime.getRuntime().availableProcessors() ? 20_000_000 : 0;
        members = new Thread[size - 1];
        for (int m = 1; m < size; m++) {
            int index = m;
            Thread t = new Thread(() -> serve(index), name + "-" + m);
            t.setDaemon(true);
            members[m - 1] = t;
            t.start();
        }
    }

    /** Runs {@code task} for 0 to size-1, 0 on this thread, and returns when every member is done. */
    void run(IntConsumer task) {
        if (size == 1) {
            task.accept(0);
            return;
        }
        caller = Thread.currentThread();
        failure = null;
        running.set(size - 1);
        this.task = task;
        phase++;
        for (Thread t : members) {
            LockSupport.unpark(t);
        }
        try {
            task.accept(0);
        } catch (RuntimeException | Error e) {
            awaitMembers();
            throw e;
        }
        awaitMembers();
        if (failure != null) {
            throw failure;
        }
    }

    /** What {@link #forEach} does with an item: the member doing it, and the item. */
    @FunctionalInterface
    interface ItemTask {
        void accept(int member, int item);
    }

    /**
     * Does items 0 to count-1, each once, each by whichever member is free first, taking them in order;
     * returns when all are done.
     */
    void forEach(int count, ItemTask task) {
        forEach(count, task, false);
    }

    /**
     * The same; {@code alone}: this thread does every item as member 0 and the others are not woken, for work
     * too small to pay for the meeting at its end (a member descheduled on a loaded machine holds it for a
     * time slice, milliseconds). Which member does an item never changes what it computes.
     */
    void forEach(int count, ItemTask task, boolean alone) {
        if (alone || size == 1 || aloneFor > 0) {
            if (size > 1) {
                if (alone) {
                    aloneSmall++;
                } else {
                    aloneAfterWaiting++;
                }
            }
            aloneFor = Math.max(0, aloneFor - 1);
            for (int item = 0; item < count; item++) {
                task.accept(0, item);
            }
            return;
        }
        nextItem.set(0);
        together++;
        long start = System.nanoTime();
        run(member -> {
            for (int item = nextItem.getAndIncrement(); item < count; item = nextItem.getAndIncrement()) {
                task.accept(member, item);
            }
            if (member == 0) {
                callerDone = System.nanoTime();
            }
        });
        adapt(callerDone - start, System.nanoTime() - callerDone);
    }

    /**
     * Adapts the crew to a loaded machine: when this thread waited for the others longer than half the time it
     * worked itself, and longer than a time slice's worth ({@value #SLOW_NANOS} ns: a member descheduled with an
     * item in hand, not the few microseconds of a wake-up), the next runs of {@link #forEach} are done alone, 2, 4,
     * up to {@value #MOST_ALONE} of them as long as that goes on, then together again to look: a short stretch, so a
     * load that passes costs the second core little. Only which thread does an item changes, never what it computes.
     */
    private void adapt(long worked, long waited) {
        if (adapts && waited * 2 > worked && waited > SLOW_NANOS) {
            slowMeetings++;
            backoff = Math.min(MOST_ALONE, backoff == 0 ? 2 : backoff * 2);
            aloneFor = backoff;
        } else {
            backoff = 0;
        }
    }

    /** How its runs of {@link #forEach} fell to its members so far, and the CPU time its threads spent since it began. */
    PhaseTimes.CrewCounts counts() {
        return new PhaseTimes.CrewCounts(together, aloneSmall, aloneAfterWaiting, slowMeetings, cpuNanos());
    }

    private final long callerCpuAtStart = threadCpu(Thread.currentThread());

    /** CPU time of this thread since the crew began and of its members' threads; 0 where the JVM does not measure it. */
    private long cpuNanos() {
        long sum = Math.max(0, threadCpu(Thread.currentThread()) - callerCpuAtStart);
        for (Thread t : members) {
            sum += Math.max(0, threadCpu(t));
        }
        return sum;
    }

    private static long threadCpu(Thread t) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try {
            return mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(t.getId()) : 0;
        } catch (UnsupportedOperationException e) {
            return 0;
        }
    }

    private long together;
    private long aloneSmall;
    private long aloneAfterWaiting;
    private long slowMeetings;
    private static final int MOST_ALONE = 8;
    private static final long SLOW_NANOS = 1_000_000;
    private final boolean adapts;
    private int aloneFor; // runs of forEach still to be done alone
    private int backoff;
    private volatile long callerDone;

    private void awaitMembers() {
        long start = System.nanoTime();
        while (running.get() > 0) {
            long waited = System.nanoTime() - start;
            if (waited < SPIN_ONLY_NANOS) {
                Thread.onSpinWait();
            } else if (waited < spinNanos) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, 100_000);
            }
        }
    }

    /**
     * A wait longer than this yields the core between looks instead of spinning on it: on a loaded machine the
     * member waited for may be queued behind this one, and a spinning waiter keeps it off the core for a whole
     * time slice; yielding costs a few microseconds a look when nothing else is waiting to run.
     */
    private static final long SPIN_ONLY_NANOS = 50_000;

    private void serve(int index) {
        int seen = 0;
        while (true) {
            long start = System.nanoTime();
            while (phase == seen && !closed) {
                long waited = System.nanoTime() - start;
                if (waited < SPIN_ONLY_NANOS) {
                    Thread.onSpinWait();
                } else if (waited < spinNanos) {
                    Thread.yield();
                } else {
                    LockSupport.park(this);
                }
            }
            if (closed) {
                return;
            }
            seen = phase;
            try {
                task.accept(index);
            } catch (RuntimeException e) {
                failure = e;
            } catch (Error e) {
                failure = new IllegalStateException(e);
            } finally {
                if (running.decrementAndGet() == 0) {
                    LockSupport.unpark(caller);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread t : members) {
            LockSupport.unpark(t);
        }
    }
}
