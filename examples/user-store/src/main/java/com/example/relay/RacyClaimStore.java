package com.example.relay;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.OutboxRow;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The race: the claim reads the row, decides it is claimable, and then writes the lease with a plain put, not a
 * conditional update. Two pollers that read the row before either writes both get a token and both believe
 * they own it: two live leases on one row (SINGLE_LIVE_LEASE). The same bug in SQL is a SELECT followed by an
 * UPDATE ... WHERE id = ? without re-checking the lease in the WHERE clause.
 */
public class RacyClaimStore extends MemoryOutboxStore {

    public RacyClaimStore(List<Event> events, Map<String, Integer> initialStock, int leaseTicks) {
        super(events, initialStock, leaseTicks);
    }

    @Override
    protected Optional<Long> lease(String eventId, OutboxRow row, String poller, int now) {
        long token = tokens.incrementAndGet();
        rows.put(eventId, row.withLease(leaseFor(poller, token, now))); // writes what it decided on the old read
        return Optional.of(token);
    }
}
