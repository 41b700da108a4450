package dev.relaycheck.model.store;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayLogic;

import java.util.List;
import java.util.Map;

/**
 * Broken: the ack reads the row and checks the token, then writes DELIVERED in a second statement. A poller
 * that re-claims the expired row in between has its fresh lease overwritten by the stale owner's ack.
 */
public class ReadThenWriteAckStore extends ConcurrentRelayStore {

    public ReadThenWriteAckStore(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks) {
        super(logic, events, stock, leaseTicks);
    }

    @Override
    public boolean ack(String eventId, long token) {
        RowSlot slot = slot(eventId);
        OutboxRow seen = slot.row; // read ...
        if (!logic.acceptsAck(seen, token)) {
            return false;
        }
        slot.lock.lock(); // ... then write what was decided on the old read
        try {
            slot.row = slot.row.delivered();
            return true;
        } finally {
            slot.lock.unlock();
        }
    }
}
