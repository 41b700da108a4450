package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;

/**
 * The Lincheck test class: the thread-safe store's operations over {@link StoreDomain}, on whichever target
 * {@link TargetUnderTest} names, as pollers perform them ({@link PollerOperations}). Each operation's first argument
 * is its poller: {@code ack(1, E1)} is p1 acknowledging E1 with the token it was granted. In random scenarios the
 * poller is the thread's own (ThreadIdGen). Claims take one row (a multi-row claim is deliberately not atomic as a
 * whole). {@code stock()} is an observer: it is what shows a consumer that answered DUPLICATE before the effect of
 * the first delivery landed. Each operation describes the state as it starts and as it returns, for the trace
 * ({@link StateView}); another thread may run in between, and the two lines show what it changed.
 */
@Param(name = "poller", gen = ThreadIdGen.class)
public class RelayStoreOperations {
    private final PollerOperations pollers = new PollerOperations(TargetUnderTest.newStore());

    @Operation
    public Claimed claim(@Param(name = "poller") int poller) {
        StateView.describe(pollers.store());
        return traced(pollers.claim(poller));
    }

    @Operation
    public Answer deliver(@Param(name = "poller") int poller, EventId event) {
        StateView.describe(pollers.store());
        return traced(pollers.deliver(poller, event));
    }

    @Operation
    public Answer ack(@Param(name = "poller") int poller, EventId event) {
        StateView.describe(pollers.store());
        return traced(pollers.ack(poller, event));
    }

    @Operation
    public Answer release(@Param(name = "poller") int poller, EventId event) {
        StateView.describe(pollers.store());
        return traced(pollers.release(poller, event));
    }

    @Operation
    public int tick() {
        StateView.describe(pollers.store());
        return traced(pollers.tick());
    }

    @Operation
    public int stock() {
        StateView.describe(pollers.store());
        return traced(pollers.stock());
    }

    private <T> T traced(T result) {
        StateView.describe(pollers.store());
        return result;
    }
}
