package dev.relaycheck.checker.packed;

import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.Surroundings;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.relaycheck.checker.packed.PackedLayout.ABSENT;
import static dev.relaycheck.checker.packed.PackedLayout.CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.CRASHES;
import static dev.relaycheck.checker.packed.PackedLayout.CURSOR;
import static dev.relaycheck.checker.packed.PackedLayout.DELETED;
import static dev.relaycheck.checker.packed.PackedLayout.DELETED_DELIVERED;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVERED;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVER_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.EFFECTS;
import static dev.relaycheck.checker.packed.PackedLayout.EXPIRY;
import static dev.relaycheck.checker.packed.PackedLayout.HELD;
import static dev.relaycheck.checker.packed.PackedLayout.IN_FLIGHT;
import static dev.relaycheck.checker.packed.PackedLayout.LAST_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.LOST_ACKS;
import static dev.relaycheck.checker.packed.PackedLayout.MARKER_AT;
import static dev.relaycheck.checker.packed.PackedLayout.MARKER_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.OWNER;
import static dev.relaycheck.checker.packed.PackedLayout.PHASE;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCED;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCE_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.PURGED;
import static dev.relaycheck.checker.packed.PackedLayout.READS;
import static dev.relaycheck.checker.packed.PackedLayout.RENEWALS;
import static dev.relaycheck.checker.packed.PackedLayout.SKEWS;
import static dev.relaycheck.checker.packed.PackedLayout.STATUS;
import static dev.relaycheck.checker.packed.PackedLayout.TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.VERSION;

/**
 * Turns a packed scratch back into the readable state, independently of the packed transitions, so the
 * agreement probe and tests can compare the two models with {@code equals}.
 */
final class ReadableView {
    private final Scenario scenario;
    private final RelayLogic logic;
    private final PackedLayout at;
    private final LogicTable.Shared table; // a user's logic: its markers' keys as it gave them; else null

    ReadableView(Scenario scenario, RelayLogic logic, PackedLayout at) {
        this(scenario, logic, at, null);
    }

    ReadableView(Scenario scenario, RelayLogic logic, PackedLayout at, LogicTable.Shared table) {
        this.scenario = scenario;
        this.logic = logic;
        this.at = at;
        this.table = table;
    }

    /** The key of the marker event {@code e}'s applied delivery wrote (under {@code markerToken}, where kept). */
    private String markerKey(Event ev, int e, int markerToken) {
        return table == null ? logic.dedupKey(ev, markerToken) : table.keyName(table.markerKeyId(e, markerToken));
    }

    /** The instance id a lease's owner code stands for: the poller's own name, or the id it presents. */
    private String owner(int code) {
        return scenario.instanceId(scenario.pollers().get(code - 1));
    }

    RelayState state(int[] s) {
        List<OutboxRow> rows = new ArrayList<>();
        TreeSet<String> business = new TreeSet<>();
        TreeMap<String, String> markers = new TreeMap<>();
        TreeMap<String, Integer> writtenAt = new TreeMap<>();
        TreeSet<String> purged = new TreeSet<>();
        TreeMap<String, Integer> stock = new TreeMap<>(scenario.initialStock());
        TreeMap<String, Integer> effects = new TreeMap<>();
        TreeMap<String, List<Integer>> order = new TreeMap<>();
        List<Event> inFlight = new ArrayList<>();
        TreeMap<String, String> cleanedUp = new TreeMap<>();
        for (int e = 0; e < at.events; e++) {
            Event ev = scenario.events().get(e);
            int r = at.row(e);
            Lease lease = s[r + OWNER] == 0 ? null : new Lease(owner(s[r + OWNER]), s[r + TOKEN], s[r + EXPIRY],
                    at.leaseClock(s, r));
            if (s[r + STATUS] != ABSENT) {
                rows.add(new OutboxRow(ev, s[r + STATUS] == DELIVERED ? RowStatus.DELIVERED : RowStatus.PENDING, lease,
                        s[r + VERSION]));
                business.add(ev.id());
            } else if (s[r + DELETED] != 0) {
                business.add(ev.id());
                RowStatus was = s[r + DELETED] == DELETED_DELIVERED ? RowStatus.DELIVERED : RowStatus.PENDING;
                cleanedUp.put(ev.id(), Surroundings.asDeleted(new OutboxRow(ev, was, lease)));
            }
            if (s[r + IN_FLIGHT] != 0) {
                inFlight.add(ev);
            }
            if (s[r + EFFECTS] > 0) {
                String key = markerKey(ev, e, s[r + MARKER_TOKEN]);
                if (s[r + PURGED] == 0) {
                    markers.put(key, ev.id());
                    if (s[r + MARKER_AT] > 0) {
                        writtenAt.put(key, s[r + MARKER_AT] - 1);
                    }
                }
                stock.merge(ev.aggregate(), -ev.quantity(), Integer::sum);
                effects.put(ev.id(), s[r + EFFECTS]);
                order.computeIfAbsent(ev.aggregate(), k -> new ArrayList<>()).add(ev.seq());
            }
            if (s[r + PURGED] != 0) {
                purged.add(ev.id());
            }
        }
        List<PollerState> pollers = new ArrayList<>();
        List<Integer> skews = new ArrayList<>();
        for (int p = 0; p < at.pollers; p++) {
            int b = at.poller(p);
            List<Held> batch = new ArrayList<>();
            for (int k = 0; k < s[b + HELD]; k++) {
                batch.add(new Held(id(s[at.heldEvent(b, k)]), s[at.heldToken(b, k)]));
            }
            List<String> reads = new ArrayList<>();
            for (int k = 0; k < s[b + READS]; k++) {
                reads.add(id(s[at.read(b, k)]));
            }
            pollers.add(new PollerState(PollerState.Phase.values()[s[b + PHASE]], batch, reads));
            if (p < s[SKEWS]) {
                skews.add(s[at.skew(p)] - at.maxSkew);
            }
        }
        int cursor = s[CURSOR] == 0 ? 0 : scenario.events().get(s[CURSOR] - 1).seq();
        Surroundings hazards = new Surroundings(s[RENEWALS], skews, inFlight, cursor, new TreeSet<>(), cleanedUp);
        return new RelayState(s[CLOCK], s[LAST_TOKEN], rows, business,
                new ConsumerState(markers, stock, effects, order, writtenAt, purged), pollers, new ProducerState(s[PRODUCED], false),
                new RelayState.FaultCounts(s[CRASHES], s[LOST_ACKS], s[DELIVER_FAILS], s[PRODUCE_FAILS]), hazards);
    }

    private String id(int e) {
        return scenario.events().get(e).id();
    }
}
