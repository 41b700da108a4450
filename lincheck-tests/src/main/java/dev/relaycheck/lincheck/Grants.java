package dev.relaycheck.lincheck;

import dev.relaycheck.model.Held;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pollers' memory in one check run: the token each poller's latest claim of each row was given (what it
 * presents when it delivers, acks or releases that row), and the highest token each row was granted by a claim
 * that has returned. Operations name a poller, never a token: the check compares which rows were granted, which
 * acks and releases were accepted and whether a re-claim's token went up, not the numbers a store picks.
 *
 * <p>Random scenarios give each Lincheck thread its own poller, so one poller's operations never overlap and what
 * it holds is its own sequential memory, as a real poller's is. The model-checking options treat this class as
 * atomic: it is the harness's bookkeeping, not part of the store under test.
 */
final class Grants {
    private final Map<String, Map<String, Long>> held = new TreeMap<>();
    private final Map<String, Long> highest = new TreeMap<>();

    /** The token {@code poller} holds for {@code event}, or null when it was never granted the row. */
    synchronized Long held(String poller, String event) {
        return held.getOrDefault(poller, Map.of()).get(event);
    }

    /** The highest token per row granted by the claims that have returned so far: read as a claim starts. */
    synchronized Map<String, Long> highestSoFar() {
        return new TreeMap<>(highest);
    }

    /**
     * Records what a claim by {@code poller} was granted; a grant whose token is not above the row's highest before
     * the claim started ({@code before}) is a reused token. Only claims that returned before this one started count,
     * so a correct store's concurrent claims never make its fresh token look reused.
     */
    synchronized Claimed granted(String poller, Map<String, Long> before, List<Held> grants) {
        Claimed c = Claimed.of(grants, before::get);
        for (Held h : grants) {
            held.computeIfAbsent(poller, p -> new TreeMap<>()).put(h.eventId(), h.token());
            highest.merge(h.eventId(), h.token(), Math::max);
        }
        return c;
    }
}
