package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import dev.relaycheck.lincheck.StoreDomain.Poller;
import dev.relaycheck.model.Held;
import dev.relaycheck.model.store.RelayStore;
import dev.relaycheck.model.store.RelayStore.Delivery;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

import java.util.List;

/**
 * The Lincheck test class: the thread-safe store's operations over {@link StoreDomain}, on whichever target
 * {@link TargetUnderTest} names. Claims take one row (a multi-row claim is deliberately not atomic as a whole).
 * {@code stock()} is an observer: it is what shows a consumer that answered DUPLICATE before the effect of the
 * first delivery landed. Each operation describes the state as it starts and as it returns, for the trace
 * ({@link StateView}); another thread may run in between, and the two lines show what it changed.
 */
@Param(name = "token", gen = LongGen.class, conf = StoreDomain.TOKENS)
public class RelayStoreOperations {
    private final RelayStore store = TargetUnderTest.newStore();

    @Operation
    public List<Held> claim(Poller poller) {
        StateView.describe(store);
        return traced(store.claim(poller.name(), 1));
    }

    @Operation
    public Delivery deliver(EventId event, @Param(name = "token") long token) {
        StateView.describe(store);
        return traced(store.consume(event.name(), token));
    }

    @Operation
    public boolean ack(EventId event, @Param(name = "token") long token) {
        StateView.describe(store);
        return traced(store.ack(event.name(), token));
    }

    @Operation
    public boolean release(EventId event, @Param(name = "token") long token) {
        StateView.describe(store);
        return traced(store.release(event.name(), token));
    }

    @Operation
    public int tick() {
        StateView.describe(store);
        return traced(store.tick());
    }

    @Operation
    public int stock() {
        StateView.describe(store);
        return traced(store.stock(StoreDomain.SKU));
    }

    private <T> T traced(T result) {
        StateView.describe(store);
        return result;
    }
}
