package dev.relaycheck.checker.packed;

import static dev.relaycheck.checker.packed.PackedLayout.ABSENT;
import static dev.relaycheck.checker.packed.PackedLayout.CLOCK;
import static dev.relaycheck.checker.packed.PackedLayout.CRASHES;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVERED;
import static dev.relaycheck.checker.packed.PackedLayout.DELIVER_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.EFFECTS;
import static dev.relaycheck.checker.packed.PackedLayout.EXPIRY;
import static dev.relaycheck.checker.packed.PackedLayout.HELD;
import static dev.relaycheck.checker.packed.PackedLayout.LAST_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.LOST_ACKS;
import static dev.relaycheck.checker.packed.PackedLayout.MARKER_TOKEN;
import static dev.relaycheck.checker.packed.PackedLayout.OWNER;
import static dev.relaycheck.checker.packed.PackedLayout.PHASE;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCED;
import static dev.relaycheck.checker.packed.PackedLayout.PRODUCE_FAILS;
import static dev.relaycheck.checker.packed.PackedLayout.READS;
import static dev.relaycheck.checker.packed.PackedLayout.STATUS;
import static dev.relaycheck.checker.packed.PackedLayout.TOKEN;

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
import dev.relaycheck.model.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a packed scratch back into the readable state and its steps, independently of the packed
 * transitions, so the agreement test can compare the two models with {@code equals}.
 */
final class ReadableView {
    private final Scenario scenario;
    private final RelayLogic logic;
    private final PackedLayout at;

    ReadableView(Scenario scenario, RelayLogic logic, PackedLayout at) {
        this.scenario = scenario;
        this.logic = logic;
        this.at = at;
    }

    RelayState state(int[] s) {
        List<OutboxRow> rows = new ArrayList<>();
        TreeSet<String> business = new TreeSet<>();
        TreeMap<String, String> markers = new TreeMap<>();
        TreeMap<String, Integer> stock = new TreeMap<>(scenario.initialStock());
        TreeMap<String, Integer> effects = new TreeMap<>();
        TreeMap<String, List<Integer>> order = new TreeMap<>();
        for (int e = 0; e < at.events; e++) {
            Event ev = scenario.events().get(e);
            int r = at.row(e);
            if (s[r + STATUS] != ABSENT) {
                Lease lease = s[r + OWNER] == 0 ? null
                        : new Lease(scenario.pollers().get(s[r + OWNER] - 1), s[r + TOKEN], s[r + EXPIRY]);
                rows.add(new OutboxRow(ev, s[r + STATUS] == DELIVERED ? RowStatus.DELIVERED : RowStatus.PENDING, lease));
                business.add(ev.id());
            }
            if (s[r + EFFECTS] > 0) {
                markers.put(logic.dedupKey(ev, s[r + MARKER_TOKEN]), ev.id());
                stock.merge(ev.aggregate(), -ev.quantity(), Integer::sum);
                effects.put(ev.id(), s[r + EFFECTS]);
                order.computeIfAbsent(ev.aggregate(), k -> new ArrayList<>()).add(ev.seq());
            }
        }
        List<PollerState> pollers = new ArrayList<>();
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
        }
        return new RelayState(s[CLOCK], s[LAST_TOKEN], rows, business, new ConsumerState(markers, stock, effects, order),
                pollers, new ProducerState(s[PRODUCED], false),
                new RelayState.FaultCounts(s[CRASHES], s[LOST_ACKS], s[DELIVER_FAILS], s[PRODUCE_FAILS]));
    }

    Step step(int[] s, int code) {
        int p = code & 15;
        String poller = scenario.pollers().get(p);
        int b = at.poller(p);
        String head = s[b + HELD] == 0 ? "" : id(s[at.heldEvent(b, 0)]);
        long token = s[at.heldToken(b, 0)];
        return switch (code >>> 4) {
            case PackedModel.PRODUCE -> new Step.Produce(id(s[PRODUCED]));
            case PackedModel.PRODUCE_FAILS_STEP -> new Step.ProduceFails(id(s[PRODUCED]));
            case PackedModel.CLAIM -> new Step.Claim(poller);
            case PackedModel.DELIVER -> new Step.Deliver(poller, head, token);
            case PackedModel.ACK -> new Step.Ack(poller, head, token);
            case PackedModel.RELEASE -> new Step.Release(poller, head, token);
            case PackedModel.TICK -> new Step.Tick();
            case PackedModel.CRASH -> new Step.Crash(poller);
            case PackedModel.LOSE_ACK -> new Step.LoseAck(poller, head);
            case PackedModel.DELIVER_FAILS_STEP -> new Step.DeliverFails(poller, head);
            default -> throw new IllegalArgumentException("step " + code);
        };
    }

    private String id(int e) {
        return scenario.events().get(e).id();
    }
}
