package dev.relaycheck.lincheck;

import dev.relaycheck.model.Event;

import java.util.List;
import java.util.Map;

/**
 * The small world every linearizability check runs in. It is kept tiny so that Lincheck's random scenarios
 * hit the interesting interleavings often: two events of one aggregate with equal payloads (which exposes
 * the head-of-aggregate rule and dedup by payload), a poller per Lincheck thread, and a lease of one tick (so a
 * single {@code tick()} turns a live lease into an expired one). No operation takes a token: a poller presents
 * the token it was given ({@link Grants}).
 */
public final class StoreDomain {
    private StoreDomain() {
    }

    /** Event ids as an enum so Lincheck's enum generator picks them and traces print them as names. */
    public enum EventId {
        E1, E2
    }

    public static final String SKU = "SKU-1";
    public static final int INITIAL_STOCK = 10;
    public static final int LEASE_TICKS = 1;

    /**
     * The name of poller {@code n}, as the lease owner: {@code p1} and {@code p2} are the parallel threads' pollers
     * (Lincheck's ThreadIdGen numbers them so), {@code p0} runs the part before them and {@code p3} the part after.
     */
    public static String poller(int n) {
        return "p" + n;
    }

    /** Both events take 2 of SKU-1, so their payloads are equal. */
    public static final List<Event> EVENTS = List.of(
            new Event(EventId.E1.name(), SKU, 1, 2),
            new Event(EventId.E2.name(), SKU, 2, 2));

    public static final Map<String, Integer> STOCK = Map.of(SKU, INITIAL_STOCK);
}
