package dev.relaycheck.model.store;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.Invariants;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;

import static org.assertj.core.api.Assertions.assertThat;

class ConcurrentRelayStoreTest {

    private static final List<Event> EVENTS = List.of(
            new Event("E1", "SKU-1", 1, 2), new Event("E2", "SKU-1", 2, 2), new Event("E3", "SKU-2", 3, 1));
    private static final Map<String, Integer> STOCK = Map.of("SKU-1", 10, "SKU-2", 10);

    /** Run sequentially, the store answers exactly as the pure model does, op for op (seeded op mixes). */
    @Test
    void sequentialRunsAgreeWithThePureModelOnEveryLogic() {
        for (RelayLogic logic : LogicCatalogue.all()) {
            for (int seed = 0; seed < 200; seed++) {
                ConcurrentRelayStore store = new ConcurrentRelayStore(logic, EVENTS, STOCK, 2);
                SequentialRelayStore spec = new SequentialRelayStore(logic, EVENTS, STOCK, 2);
                SplitMix64 rng = new SplitMix64(seed);
                List<String> ops = new ArrayList<>();
                for (int i = 0; i < 25; i++) {
                    String id = "E" + (1 + rng.nextInt(3));
                    long token = 1 + rng.nextInt(4);
                    String poller = "p" + (1 + rng.nextInt(2));
                    int op = rng.nextInt(5);
                    Object a;
                    Object b;
                    switch (op) {
                        case 0 -> { a = store.claim(poller, 1); b = spec.claim(poller, 1); }
                        case 1 -> { a = store.consume(id, token); b = spec.consume(id, token); }
                        case 2 -> { a = store.ack(id, token); b = spec.ack(id, token); }
                        case 3 -> { a = store.release(id, token); b = spec.release(id, token); }
                        default -> { a = store.tick(); b = spec.tick(); }
                    }
                    ops.add(op + ":" + a);
                    assertThat(a).as("%s seed %d after %s", logic.id(), seed, ops).isEqualTo(b);
                }
                assertThat(store.state().rows()).isEqualTo(spec.state().rows());
                assertThat(store.state().consumer()).isEqualTo(spec.state().consumer());
            }
        }
    }

    /** Real threads: pollers race over one store, claiming, delivering and acking; the end state is exact. */
    @Test
    void racingPollersDeliverEverythingExactlyOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            ConcurrentRelayStore store = new ConcurrentRelayStore(LogicCatalogue.correct(), EVENTS, STOCK, 2);
            int pollers = 3;
            CyclicBarrier start = new CyclicBarrier(pollers);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < pollers; p++) {
                String name = "p" + p;
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < 1000 && !allDelivered(store); i++) {
                            for (Held h : store.claim(name, 2)) {
                                store.consume(h.eventId(), h.token());
                                store.ack(h.eventId(), h.token());
                            }
                            store.tick();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            Scenario scenario = Scenario.builder("race").pollers("p0").stock("SKU-1", 10).stock("SKU-2", 10)
                    .event("E1", "SKU-1", 2).event("E2", "SKU-1", 2).event("E3", "SKU-2", 1).build();
            assertThat(allDelivered(store)).isTrue();
            assertThat(Invariants.checkState(scenario, store.state())).isEmpty();
            assertThat(Invariants.isComplete(scenario, store.state())).isTrue();
            assertThat(store.stock("SKU-1")).isEqualTo(6);
        }
    }

    private static boolean allDelivered(ConcurrentRelayStore store) {
        return EVENTS.stream().allMatch(e -> store.row(e.id()).status() == RowStatus.DELIVERED);
    }
}
