package dev.relaycheck.model.store;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Outcome;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RelayTransactions;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.store.RelayStore.Delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pure model behind the thread-safe store's API: the same operations with the same signatures, each
 * one a transaction of {@link RelayTransactions} applied to an immutable {@link RelayState}. Not thread-safe;
 * it is the sequential specification that the concurrent store must be linearizable to.
 */
public class SequentialRelayStore {
    private final RelayLogic logic;
    private final int leaseTicks;
    private RelayState state;

    public SequentialRelayStore(RelayLogic logic, List<Event> events, Map<String, Integer> initialStock, int leaseTicks) {
        this.logic = logic;
        this.leaseTicks = leaseTicks;
        Scenario.Builder b = Scenario.builder("store").pollers("store");
        initialStock.forEach(b::stock);
        Scenario scenario = b.build();
        RelayState empty = RelayState.initial(scenario);
        RelayState s = empty;
        for (Event e : events) {
            s = RelayTransactions.produce(s, e).state();
        }
        this.state = s;
    }

    public List<Held> claim(String poller, int batch) {
        StepResult r = RelayTransactions.claim(logic, state, poller, batch, leaseTicks);
        state = r.state();
        List<Held> held = new ArrayList<>();
        ((Outcome.Claimed) r.outcome()).grants().forEach(g -> held.add(new Held(g.eventId(), g.token())));
        return held;
    }

    public Delivery consume(String eventId, long token) {
        Event e = state.row(eventId).orElseThrow(() -> new IllegalArgumentException("no outbox row " + eventId)).event();
        StepResult r = RelayTransactions.consume(logic, state, e, token);
        if (r.outcome() instanceof Outcome.HalfApplied) {
            r = RelayTransactions.consumeSecondHalf(logic, r.state(), e, token); // a split consumer's second transaction
        }
        state = r.state();
        return r.outcome() instanceof Outcome.Duplicate ? Delivery.DUPLICATE : Delivery.APPLIED;
    }

    public boolean ack(String eventId, long token) {
        StepResult r = RelayTransactions.ack(logic, state, eventId, token);
        state = r.state();
        return r.outcome() instanceof Outcome.Acked;
    }

    public boolean release(String eventId, long token) {
        StepResult r = RelayTransactions.release(logic, state, eventId, token);
        state = r.state();
        return r.outcome() instanceof Outcome.Released;
    }

    public int tick() {
        state = RelayTransactions.tick(state);
        return state.clock();
    }

    public RelayState state() {
        return state;
    }
}
