package dev.relaycheck.jdbc.race;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.Violation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the pollers of a race were granted and which acknowledgements and releases the database accepted,
 * judged after the run. Tokens come from one counter row updated under its lock, so on each row the token
 * order is the commit order of the claims; that is what makes the transition invariants checkable after
 * the fact without a global clock.
 */
final class LeaseHistory {

    /** A lease a claim committed: taken at logical time {@code now}. */
    record Granted(String eventId, String owner, long token, int now, int expiry) {
    }

    private final Map<String, List<Granted>> grants = new TreeMap<>();
    private final Map<String, Set<Long>> released = new TreeMap<>();
    private final Map<String, List<Long>> acked = new TreeMap<>();
    private final Map<String, Set<Long>> seen = new TreeMap<>();

    void grant(Granted g) {
        grants.computeIfAbsent(g.eventId(), k -> new ArrayList<>()).add(g);
    }

    void released(String eventId, long token) {
        released.computeIfAbsent(eventId, k -> new TreeSet<>()).add(token);
    }

    /**
     * A token the row was seen to hold (a refused step's "row holds t3"), whether or not a claim of the race issued it:
     * a relay's own bookkeeping may move a per-row token without a claim (gruelbox records a failed attempt with
     * {@code version + 1} and a retry time, which ends the owner's lease and grants nobody a new one).
     */
    void seen(String eventId, long token) {
        seen.computeIfAbsent(eventId, k -> new TreeSet<>()).add(token);
    }

    void acked(String eventId, long token) {
        acked.computeIfAbsent(eventId, k -> new ArrayList<>()).add(token);
    }

    void addAll(LeaseHistory other) {
        other.grants.forEach((k, v) -> v.forEach(this::grant));
        other.released.forEach((k, v) -> v.forEach(t -> released(k, t)));
        other.acked.forEach((k, v) -> v.forEach(t -> acked(k, t)));
        other.seen.forEach((k, v) -> v.forEach(t -> seen(k, t)));
    }

    int grantCount() {
        return grants.values().stream().mapToInt(List::size).sum();
    }

    /**
     * SINGLE_LIVE_LEASE: each grant after the first on a row must come when the previous lease had expired
     * or after its owner released it, unless a token no claim issued came between them (then the lease the grant
     * replaced is one the race never saw granted, which it cannot judge: no verdict rather than a false one). STALE_ACK_REJECTED: an accepted acknowledgement carries the row's last
     * token (nothing is granted on a DELIVERED row, so the last grant is the one the row held).
     */
    List<Violation> check() {
        List<Violation> out = new ArrayList<>();
        grants.forEach((id, list) -> {
            List<Granted> byToken = new ArrayList<>(list);
            byToken.sort(Comparator.comparingLong(Granted::token));
            for (int i = 1; i < byToken.size(); i++) {
                Granted prev = byToken.get(i - 1);
                Granted next = byToken.get(i);
                boolean expired = prev.expiry() != Lease.NEVER && next.now() >= prev.expiry();
                boolean freed = released.getOrDefault(id, Set.of()).contains(prev.token());
                boolean unseenBetween = seen.getOrDefault(id, Set.of()).stream().anyMatch(t -> t > prev.token() && t < next.token()
                        && byToken.stream().noneMatch(g -> g.token() == t));
                if (next.token() == prev.token()) {
                    out.add(new Violation(Invariant.STALE_ACK_REJECTED, id + ": two claims issued the same token t" + next.token()));
                } else if (!expired && !freed && !unseenBetween) {
                    out.add(new Violation(Invariant.SINGLE_LIVE_LEASE, id + ": " + next.owner() + " took t" + next.token()
                            + " at " + next.now() + " while " + prev.owner() + "'s t" + prev.token() + " was live until " + prev.expiry()));
                }
            }
        });
        acked.forEach((id, tokens) -> {
            long last = grants.getOrDefault(id, List.of()).stream().mapToLong(Granted::token).max().orElse(-1);
            for (long t : tokens) {
                if (t != last) {
                    out.add(new Violation(Invariant.STALE_ACK_REJECTED, id + ": acknowledgement with t" + t + " accepted although "
                            + (last < 0 ? "no claim of the race was granted the row" : t < last ? "t" + last + " was issued after it"
                            : "the row's last grant was t" + last)));
                }
            }
            if (tokens.size() > 1) {
                out.add(new Violation(Invariant.STALE_ACK_REJECTED, id + ": acknowledged " + tokens.size() + " times " + tokens));
            }
        });
        return out;
    }
}
