package com.example.relay;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.OutboxRow;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fix: the claim is a conditional update. The row is checked again and leased in one atomic step on its
 * map entry (the in-memory form of {@code UPDATE ... SET lease = ? WHERE id = ? AND (lease IS NULL OR
 * lease_expiry <= now)}), and the token is issued only by the claim that won.
 */
public class FixedClaimStore extends MemoryOutboxStore {

    public FixedClaimStore(List<Event> events, Map<String, Integer> initialStock, int leaseTicks) {
        super(events, initialStock, leaseTicks);
    }

    @Override
    protected Optional<Long> lease(String eventId, OutboxRow read, String poller, int readAt) {
        long[] won = new long[1];
        rows.computeIfPresent(eventId, (id, row) -> {
            int now = clock.get();
            if (!claimable(row, now)) {
                return row; // somebody else got there first: the WHERE clause matches nothing
            }
            won[0] = tokens.incrementAndGet();
            return row.withLease(leaseFor(poller, won[0], now));
        });
        return won[0] == 0 ? Optional.empty() : Optional.of(won[0]);
    }
}
