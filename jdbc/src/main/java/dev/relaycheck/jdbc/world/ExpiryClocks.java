package dev.relaycheck.jdbc.world;

import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayState;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which clock each lease's expiry is on, for the leases a skewed poller wrote on its own clock: the tables hold the
 * expiry number alone, and a lease is live on the clock it was written on ({@link Lease#liveAt}). A claim's expiry
 * that equals the poller's clock plus the lease is taken as written on that clock (the app-clock-expiry shape); any
 * other on the database's. The pollers of one SQL world share it; not thread-safe (the conformance walk's world).
 */
public final class ExpiryClocks {
    private record Written(long token, int expiry, int clockSkew) {
    }

    private final SortedMap<String, Written> written = new TreeMap<>();

    /** A claim by a poller whose clock reads {@code now + skew} wrote {@code expiry} under {@code token} on row {@code id}. */
    void claimed(String id, long token, int expiry, int now, int skew, int leaseTicks) {
        if (skew != 0 && expiry == now + skew + leaseTicks && expiry != now + leaseTicks) {
            written.put(id, new Written(token, expiry, skew));
        } else {
            written.remove(id);
        }
    }

    /** A fresh scenario: every lease on the database's clock. */
    void clear() {
        written.clear();
    }

    /** {@code s} with each lease a skewed poller wrote on its own clock saying so. */
    RelayState applyTo(RelayState s) {
        if (written.isEmpty()) {
            return s;
        }
        List<OutboxRow> rows = new ArrayList<>();
        for (OutboxRow row : s.rows()) {
            Written w = written.get(row.id());
            boolean same = w != null && row.hasLease() && row.lease().token() == w.token() && row.lease().expiry() == w.expiry();
            rows.add(same ? row.withLease(new Lease(row.lease().owner(), w.token(), w.expiry(), w.clockSkew())) : row);
        }
        return new RelayState(s.clock(), s.lastToken(), rows, s.businessWrites(), s.consumer(), s.pollers(), s.producer(),
                s.faults(), s.surroundings());
    }
}
