package dev.relaycheck.model;

import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What surrounds the outbox rows and the pollers: the renewal budget spent, the pollers' clock skews, producer
 * transactions not yet committed, a cursor relay's cursor, the rows the cleanup job deleted. A scenario without
 * renewals, skew, open producers, a cursor or a cleanup leaves it at {@link #NONE}, which adds nothing to a state's
 * fingerprint.
 *
 * @param renewals   lease renewals spent so far (bounded by the scenario's {@code renewals})
 * @param skews      each poller's clock minus the database's, in poller order, as the search chose them; empty
 *                   until chosen (and always empty in a scenario without skew)
 * @param inFlight   events whose producer transaction allocated their sequence but has not committed: the row
 *                   exists with its sequence and is not visible yet, in sequence order
 * @param cursor     the highest sequence a cursor relay has read (0 for a relay that claims by status)
 * @param passedOver rows a cursor relay can never read: they committed with a sequence at or below its cursor
 * @param cleanedUp  rows the outbox cleanup deleted, by event id, each with what it was just before ({@link
 *                   #asDeleted}: its status and lease holder, not its token, which nothing compares any more); a row
 *                   deleted before its effect was applied is an event no poller can claim any more
 */
public record Surroundings(int renewals, List<Integer> skews, List<Event> inFlight, int cursor,
                          SortedSet<String> passedOver, SortedMap<String, String> cleanedUp) {

    public static final Surroundings NONE = new Surroundings(0, List.of(), List.of(), 0, new TreeSet<>());

    /** A state part with no row cleaned up (every scenario without an outbox cleanup). */
    public Surroundings(int renewals, List<Integer> skews, List<Event> inFlight, int cursor, SortedSet<String> passedOver) {
        this(renewals, skews, inFlight, cursor, passedOver, new TreeMap<>());
    }

    public Surroundings {
        skews = List.copyOf(skews);
        inFlight = List.copyOf(inFlight);
        passedOver = Sorted.copySet(passedOver);
        cleanedUp = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(cleanedUp));
    }

    public boolean isNone() {
        return equals(NONE);
    }

    /** The clock poller {@code index} reads when the database's reads {@code dbClock}. */
    public int pollerClock(int index, int dbClock) {
        return index < skews.size() ? dbClock + skews.get(index) : dbClock;
    }

    /** The lowest sequence still in flight, or {@code Integer.MAX_VALUE} when no producer transaction is open. */
    public int lowestInFlightSeq() {
        return inFlight.stream().mapToInt(Event::seq).min().orElse(Integer.MAX_VALUE);
    }

    Surroundings renewed() {
        return new Surroundings(renewals + 1, skews, inFlight, cursor, passedOver, cleanedUp);
    }

    Surroundings withSkew(int skew) {
        List<Integer> s = new java.util.ArrayList<>(skews);
        s.add(skew);
        return new Surroundings(renewals, s, inFlight, cursor, passedOver, cleanedUp);
    }

    Surroundings begun(Event event) {
        List<Event> f = new java.util.ArrayList<>(inFlight);
        f.add(event);
        return new Surroundings(renewals, skews, f, cursor, passedOver, cleanedUp);
    }

    Surroundings committed(String eventId, boolean passed) {
        List<Event> f = new java.util.ArrayList<>(inFlight);
        f.removeIf(e -> e.id().equals(eventId));
        java.util.TreeSet<String> p = new java.util.TreeSet<>(passedOver);
        if (passed) {
            p.add(eventId);
        }
        return new Surroundings(renewals, skews, f, cursor, p, cleanedUp);
    }

    Surroundings withCursor(int c) {
        return new Surroundings(renewals, skews, inFlight, c, passedOver, cleanedUp);
    }

    /** The same with {@code rows} deleted by the outbox cleanup, each as it was. */
    Surroundings cleanedUp(List<OutboxRow> rows) {
        TreeMap<String, String> c = new TreeMap<>(cleanedUp);
        rows.forEach(r -> c.put(r.id(), asDeleted(r)));
        return new Surroundings(renewals, skews, inFlight, cursor, passedOver, c);
    }

    /**
     * What a row the cleanup deletes was, as the state keeps it: {@code DELIVERED}, {@code PENDING, unleased} or
     * {@code PENDING, leased to p1 until t=2}. Without its token, so states that differ only in a deleted row's token
     * (which no step compares) are one state.
     */
    public static String asDeleted(OutboxRow r) {
        if (!r.isPending()) {
            return r.status().toString();
        }
        return r.hasLease() ? "PENDING, leased to " + r.lease().owner() + (r.lease().expiry() == Lease.NEVER ? " for ever"
                : " until t=" + r.lease().expiry()) : "PENDING, unleased";
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        if (renewals > 0) {
            b.append(" renewals=").append(renewals);
        }
        if (!skews.isEmpty()) {
            b.append(" skews=").append(skews);
        }
        if (!inFlight.isEmpty()) {
            b.append(" in-flight=").append(inFlight.stream().map(Event::id).toList());
        }
        if (cursor > 0) {
            b.append(" cursor=").append(cursor);
        }
        if (!passedOver.isEmpty()) {
            b.append(" passed-over=").append(passedOver);
        }
        if (!cleanedUp.isEmpty()) {
            b.append(" cleaned-up=").append(cleanedUp);
        }
        return b.toString().trim();
    }
}
