package dev.relaycheck.lincheck;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.store.RelayStore;

/**
 * The store's state as one line, for traces. Every operation of {@link RelayStoreOperations} calls
 * {@link #describe} after it ran; the model-checking options treat this class as atomic, so the call adds no
 * thread switches and shows up in Lincheck's detailed trace as {@code StateView.describe(..): "clock=1 ..."},
 * the state right after that step of the interleaving. Lincheck 3 has no state-representation hook of its
 * own, so this is how a failure report gets its state after each step.
 */
public final class StateView {
    private StateView() {
    }

    /**
     * Clock, every row with its lease, and the stock, from the store's volatile reads only: it takes no lock,
     * so it can run at any point of an interleaving.
     */
    public static String describe(RelayStore store) {
        StringBuilder b = new StringBuilder("clock=").append(store.now());
        for (Event e : StoreDomain.EVENTS) {
            b.append(' ').append(store.row(e.id()));
        }
        return b.append(' ').append(StoreDomain.SKU).append('=').append(store.stock(StoreDomain.SKU)).toString();
    }
}
