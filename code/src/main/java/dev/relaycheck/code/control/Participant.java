package dev.relaycheck.code.control;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * An instance of the relay, or the producer: a name in traces, the instance id the relay was given, and the
 * physical connections it opened (to roll back and close when it crashes, and to tell its lock waits).
 */
public final class Participant {
    private final String name;
    private final String instanceId;
    private final int number;
    private final List<Connection> connections = new ArrayList<>();
    private final Map<Connection, Long> sessions = new IdentityHashMap<>();
    private final List<Connection> broken = new ArrayList<>();
    /** Connections the relay closed, kept open for its next getConnection (a pool, as a service has one). */
    private final java.util.ArrayDeque<Connection> idle = new java.util.ArrayDeque<>();
    private volatile boolean crashed;
    private int threads;
    /** Polls started so far; the one running is number {@code polls} while {@code inPoll}. */
    private volatile int polls;
    private volatile boolean inPoll;

    /**
     * @param name       the name traces use ({@code relay-1}, {@code relay-1'} for its replacement, {@code producer})
     * @param instanceId the id the relay was given (a replacement may share it)
     * @param number     its place among participants, from 0: the order relaycheck lists their choices in
     */
    public Participant(String name, String instanceId, int number) {
        this.name = name;
        this.instanceId = instanceId;
        this.number = number;
    }

    public String name() {
        return name;
    }

    public String instanceId() {
        return instanceId;
    }

    public int number() {
        return number;
    }

    public boolean crashed() {
        return crashed;
    }

    /** A poll starts (on the instance's own thread). */
    public void pollStarts() {
        polls++;
        inPoll = true;
    }

    public void pollEnds() {
        inPoll = false;
    }

    public int polls() {
        return polls;
    }

    /** Alive and still in its poll number {@code poll}. */
    public boolean stillIn(int poll) {
        return !crashed && inPoll && polls == poll;
    }

    /** The label of its next thread: its name, then {@code name/2}, ... for threads the relay starts. */
    synchronized String nextThreadLabel() {
        threads++;
        return threads == 1 ? name : name + "/" + threads;
    }

    synchronized void opened(Connection c, long session) {
        connections.add(c);
        sessions.put(c, session);
    }

    /** A connection the relay closed, rolled back and back in auto-commit, ready for its next getConnection. */
    synchronized void returned(Connection c) {
        try {
            if (!crashed && !c.isClosed() && !isBroken(c)) {
                if (!c.getAutoCommit()) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
                idle.push(c);
                return;
            }
        } catch (SQLException e) {
            // a connection that cannot be reset is not reused
        }
        close(c);
    }

    /** A connection the relay closed before, or null. */
    synchronized Connection reuse() {
        return idle.poll();
    }

    synchronized long session(Connection c) {
        Long s = sessions.get(c);
        return s == null ? -1 : s;
    }

    /** The connection broke (a lost commit acknowledgement): it is closed, and every later call on it fails. */
    synchronized void broke(Connection c) {
        broken.add(c);
        close(c);
    }

    /** Whether a connection of this participant broke since {@code since} of them had (a commit acknowledgement lost). */
    public synchronized int brokenConnections() {
        return broken.size();
    }

    synchronized boolean isBroken(Connection c) {
        return broken.stream().anyMatch(b -> b == c);
    }

    /** The process dies: every connection it holds is rolled back and closed, so the database frees its locks. */
    public synchronized void crash() {
        crashed = true;
        connections.forEach(Participant::close);
    }

    /** Closes what is still open (the end of a run). */
    public synchronized void closeAll() {
        connections.forEach(Participant::close);
    }

    private static void close(Connection c) {
        try {
            if (!c.isClosed()) {
                if (!c.getAutoCommit()) {
                    c.rollback();
                }
                c.close();
            }
        } catch (SQLException e) {
            // a connection the database already ended: nothing is left to free
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
