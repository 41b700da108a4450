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
 * {@link RelayStoreOperations} for a store that cannot produce a snapshot: the same operations judged by what
 * they answer alone, without the {@code stock()} observer and without the state in the trace. A consumer that
 * answers DUPLICATE before the first effect landed is invisible here; everything an answer shows is not.
 */
@Param(name = "token", gen = LongGen.class, conf = StoreDomain.TOKENS)
public class OutcomeOnlyOperations {
    private final RelayStore store = TargetUnderTest.newStore();

    @Operation
    public List<Held> claim(Poller poller) {
        return store.claim(poller.name(), 1);
    }

    @Operation
    public Delivery deliver(EventId event, @Param(name = "token") long token) {
        return store.consume(event.name(), token);
    }

    @Operation
    public boolean ack(EventId event, @Param(name = "token") long token) {
        return store.ack(event.name(), token);
    }

    @Operation
    public boolean release(EventId event, @Param(name = "token") long token) {
        return store.release(event.name(), token);
    }

    @Operation
    public int tick() {
        return store.tick();
    }
}
