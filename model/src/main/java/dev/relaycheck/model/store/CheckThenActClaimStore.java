package dev.relaycheck.model.store;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.RelayLogic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Broken: the claim reads which rows are claimable without any lock, then takes each row's lock and writes
 * the lease without checking again. Two pollers that read at the same time both "win" the same row.
 */
public class CheckThenActClaimStore extends ConcurrentRelayStore {

    public CheckThenActClaimStore(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks) {
        super(logic, events, stock, leaseTicks);
    }

    @Override
    public List<Held> claim(String poller, int batch) {
        int now = clock.get();
        List<RowSlot> seen = new ArrayList<>();
        for (RowSlot slot : slots()) {
            if (seen.size() < batch && logic.isClaimable(slot.row, rowSnapshot(), now, poller)) {
                seen.add(slot); // the check ...
            }
        }
        List<Held> held = new ArrayList<>();
        for (RowSlot slot : seen) {
            slot.lock.lock(); // ... then the act, with no re-check in between
            try {
                held.add(writeLease(slot, poller, now));
            } finally {
                slot.lock.unlock();
            }
        }
        return held;
    }
}
