package dev.relaycheck.checker.space;

import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renumbers the fencing tokens of a state canonically: each positive token becomes its rank among the
 * positive tokens the state holds (1, 2, ...), order kept. The invariants compare tokens only for equality
 * (fencing) and order (a claim's token above the last issued), so a logic whose decisions depend on token
 * order and equality alone (every shipped one: a fresh token is the last issued plus one, a kept token is an
 * old one, a per-delivery dedup key names its token) cannot tell a state from its renumbering: both have the
 * same steps in the same order, with the same outcomes up to the renaming, and the same verdicts. Merging
 * them is a sound reduction, and it makes the space finite when tokens are what grows without end (a lease
 * that expires as it is granted: pollers re-claim each other's row forever, each claim a new token).
 *
 * <p>A token lives in: the last-issued counter, each row's lease, each poller's batch (the grants it holds),
 * and, for a consumer whose dedup key derives from the delivery token (new-id-on-retry), in the consumer's
 * marker keys; such a key is rewritten as the logic writes it for the renumbered token. Whether an event's
 * key depends on the token is asked of the logic once (its keys for tokens 1 and 2 differ).
 *
 * <p>Not sound for a logic that looks at a token's value (compares it with a constant, takes it modulo
 * something): run such a logic with exact tokens.
 */
public final class CanonicalTokens {
    private static final long PROBE_A = 1;
    private static final long PROBE_B = 2;

    private final RelayLogic logic;
    private final Scenario scenario;
    private final Map<String, Boolean> keyedByToken = new TreeMap<>(); // per event id, fixed at construction

    public CanonicalTokens(RelayLogic logic, Scenario scenario) {
        this.logic = logic;
        this.scenario = scenario;
        for (Event e : scenario.events()) {
            keyedByToken.put(e.id(), !logic.dedupKey(e, PROBE_A).equals(logic.dedupKey(e, PROBE_B)));
        }
    }

    /**
     * Tokens a lease-respecting relay can issue in {@code scenario}: a row is claimed again only after its
     * lease expired (a tick), after a release (a failed delivery) or from a stale read (a poller's), so a few
     * claims per row per tick bound them; rounded up to all ones in binary, the field the packed engine gives a
     * token. An exact search whose states pass it runs a logic whose space does not close this way.
     * {@code maxTicks} is the scenario's clock bound resolved against the logic ({@code RelayModel.maxTicks}).
     */
    public static int exactBound(Scenario s, int maxTicks) {
        int claims = s.events().size() * (maxTicks + 1 + s.maxDeliverFails() + s.pollers().size());
        return (1 << (32 - Integer.numberOfLeadingZeros(claims))) - 1;
    }

    /** {@code s} with its tokens renumbered by rank; {@code s} itself when they already are. */
    public RelayState canonical(RelayState s) {
        long[] tokens = new long[1 + s.rows().size() + 2 * s.pollers().size() * Math.max(1, scenario.batch())
                + s.consumer().markers().size()];
        int n = 0;
        tokens[n++] = s.lastToken();
        for (OutboxRow r : s.rows()) {
            if (r.hasLease()) {
                tokens[n++] = r.lease().token();
            }
            if (r.version() != 0) { // a per-row version is ranked with the tokens it is compared with
                tokens = grow(tokens, n);
                tokens[n++] = r.version();
            }
        }
        for (PollerState p : s.pollers()) {
            for (Held h : p.batch()) {
                tokens = grow(tokens, n);
                tokens[n++] = h.token();
            }
        }
        long[] markerTokens = markerTokens(s);
        if (markerTokens == null) {
            return s; // a key that names no token up to the last issued: leave the state exact
        }
        for (long t : markerTokens) {
            if (t != 0) {
                tokens = grow(tokens, n);
                tokens[n++] = t;
            }
        }
        long[] ranked = distinctPositive(tokens, n);
        if (ranked.length == 0 || ranked[ranked.length - 1] == ranked.length) {
            return s; // already 1..k
        }
        List<OutboxRow> rows = new ArrayList<>(s.rows().size());
        for (OutboxRow r : s.rows()) {
            OutboxRow renumbered = r.hasLease() ? r.withLease(r.lease().withToken(rank(ranked, r.lease().token()))) : r;
            rows.add(r.version() == 0 ? renumbered : renumbered.withVersion(rank(ranked, r.version())));
        }
        List<PollerState> pollers = new ArrayList<>(s.pollers().size());
        for (PollerState p : s.pollers()) {
            List<Held> batch = new ArrayList<>(p.batch().size());
            for (Held h : p.batch()) {
                batch.add(new Held(h.eventId(), rank(ranked, h.token())));
            }
            pollers.add(p.batch().isEmpty() ? p : new PollerState(p.phase(), batch, p.readSet()));
        }
        ConsumerState c = s.consumer();
        if (markerTokens.length > 0) {
            TreeMap<String, String> markers = new TreeMap<>();
            TreeMap<String, Integer> writtenAt = new TreeMap<>(); // a dated marker keeps its date under its new key
            int k = 0;
            for (Map.Entry<String, String> m : c.markers().entrySet()) {
                long t = markerTokens[k++];
                String key = t == 0 ? m.getKey() : logic.dedupKey(scenario.event(m.getValue()), rank(ranked, t));
                markers.put(key, m.getValue());
                if (c.writtenAt(m.getKey()) >= 0) {
                    writtenAt.put(key, c.writtenAt(m.getKey()));
                }
            }
            c = new ConsumerState(markers, c.stock(), c.effects(), c.appliedOrder(), writtenAt, c.purged());
        }
        return new RelayState(s.clock(), rank(ranked, s.lastToken()), rows, s.businessWrites(), c, pollers, s.producer(),
                s.faults(), s.surroundings());
    }

    /**
     * Per marker in key order, the token its key was written for (0: a key that names none); empty when no
     * event's key depends on the token; null when a key that should name a token names none up to the last
     * issued.
     */
    private long[] markerTokens(RelayState s) {
        Map<String, String> markers = s.consumer().markers();
        boolean any = false;
        for (String eventId : markers.values()) {
            any |= keyedByToken.getOrDefault(eventId, false);
        }
        if (!any) {
            return new long[0];
        }
        long[] out = new long[markers.size()];
        int k = 0;
        for (Map.Entry<String, String> m : markers.entrySet()) {
            if (keyedByToken.getOrDefault(m.getValue(), false)) {
                Event e = scenario.event(m.getValue());
                long found = 0;
                for (long t = 1; t <= s.lastToken() && found == 0; t++) {
                    found = logic.dedupKey(e, t).equals(m.getKey()) ? t : 0;
                }
                if (found == 0) {
                    return null;
                }
                out[k] = found;
            }
            k++;
        }
        return out;
    }

    private static long[] grow(long[] a, int n) {
        return n < a.length ? a : Arrays.copyOf(a, 2 * a.length + 1);
    }

    private static long[] distinctPositive(long[] tokens, int n) {
        long[] sorted = Arrays.copyOf(tokens, n);
        Arrays.sort(sorted);
        int m = 0;
        for (long t : sorted) {
            if (t > 0 && (m == 0 || sorted[m - 1] != t)) {
                sorted[m++] = t;
            }
        }
        return Arrays.copyOf(sorted, m);
    }

    /** The rank (from 1) of a positive token among {@code ranked}; a token of 0 or below stays as it is. */
    private static long rank(long[] ranked, long token) {
        return token <= 0 ? token : Arrays.binarySearch(ranked, token) + 1;
    }
}
