package dev.relaycheck.lincheck;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.store.ConcurrentRelayStore;

import java.util.List;
import java.util.Map;

/**
 * One thing a check is pointed at: the correct store, a broken store, or the correct store running a broken
 * catalogue logic.
 *
 * @param id          {@code correct}, a catalogue variant id, or a broken store's kebab-case name
 * @param kind        what sort of target it is
 * @param description the mistake in one line (for {@code correct}: what it is)
 * @param breaks      the invariant the mistake breaks, empty for {@code correct}
 * @param sequential  true if the mistake changes what a single thread sees (so stress mode catches it
 *                    reliably); false if only a race shows it (model checking only)
 * @param factory     builds a fresh store over the given events, stock and lease length
 */
public record Target(String id, Kind kind, String description, String breaks, boolean sequential, StoreFactory factory) {

    /** What sort of target. */
    public enum Kind {
        CORRECT,
        BROKEN_STORE,
        BROKEN_LOGIC
    }

    /** Builds a store; the same signature as the stores' constructors minus the logic. */
    @FunctionalInterface
    public interface StoreFactory {
        ConcurrentRelayStore create(List<Event> events, Map<String, Integer> stock, int leaseTicks);
    }

    public boolean isCorrect() {
        return kind == Kind.CORRECT;
    }

    /** PASS for the correct store, CATCH for everything broken. */
    public String expect() {
        return isCorrect() ? "PASS" : "CATCH";
    }

    public ConcurrentRelayStore newStore(List<Event> events, Map<String, Integer> stock, int leaseTicks) {
        return factory.create(events, stock, leaseTicks);
    }
}
