package dev.relaycheck.code.control;

/**
 * One thread of a {@link Participant}: the thread relaycheck starts for an instance (or the producer), or a thread
 * the relay starts itself and that reaches a scheduling point. Its fields are guarded by the {@link Conductor}'s lock.
 */
public final class Actor {
    private final Participant participant;
    private final String label;
    final Thread thread;
    /** Where it waits now; null while it runs. */
    Point waiting;
    /** What relaycheck let it do, handed over at {@link Conductor#arrive}. */
    Permit permit;
    /** Its thread ended. */
    boolean finished;
    /** The database session its last statement runs on (to tell a lock wait from work), or -1. */
    volatile long session = -1;
    /**
     * Not yet at its first point: the relay is being built (classes load and initialise, one thread waiting on
     * another's class initialisation), and nothing of the run waits on it yet, so it is never taken as blocked.
     */
    boolean starting = true;
    /** Seen in its database's retry of a write that met an uncommitted row (see {@link LockWaits#retriesOnLock}). */
    boolean retrying;

    Actor(Participant participant, String label, Thread thread) {
        this.participant = participant;
        this.label = label;
        this.thread = thread;
    }

    public Participant participant() {
        return participant;
    }

    /** {@code relay-1}, {@code producer}, or {@code relay-1/2} for the relay's own second thread. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
