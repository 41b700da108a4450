package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;

/**
 * {@link RelayStoreOperations} for a store that cannot produce a snapshot: the same operations judged by what
 * they answer alone, without the {@code stock()} observer and without the state in the trace. A consumer that
 * answers DUPLICATE before the first effect landed is invisible here; everything an answer shows is not.
 */
@Param(name = "poller", gen = ThreadIdGen.class)
public class OutcomeOnlyOperations {
    private final PollerOperations pollers = new PollerOperations(TargetUnderTest.newStore());

    @Operation
    public Claimed claim(@Param(name = "poller") int poller) {
        return pollers.claim(poller);
    }

    @Operation
    public Answer deliver(@Param(name = "poller") int poller, EventId event) {
        return pollers.deliver(poller, event);
    }

    @Operation
    public Answer ack(@Param(name = "poller") int poller, EventId event) {
        return pollers.ack(poller, event);
    }

    @Operation
    public Answer release(@Param(name = "poller") int poller, EventId event) {
        return pollers.release(poller, event);
    }

    @Operation
    public int tick() {
        return pollers.tick();
    }
}
