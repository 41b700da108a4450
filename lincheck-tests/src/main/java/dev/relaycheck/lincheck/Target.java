package dev.relaycheck.lincheck;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.store.RelayStore;

import java.util.List;
import java.util.Map;

/**
 * One thing a check is pointed at: the correct store, a broken store, the correct store running a broken
 * catalogue logic, or the user's target (their logic in the shipped store, or their own store).
 *
 * @param id          {@code correct}, a catalogue variant id, or a broken store's kebab-case name
 * @param kind        what sort of target it is
 * @param description the mistake in one line (for {@code correct}: what it is)
 * @param breaks      the invariant the mistake breaks, empty for {@code correct}
 * @param sequential  true if the mistake changes what a single thread sees (so stress mode catches it
 *                    reliably); false if only a race shows it (model checking only)
 * @param factory     builds a fresh store over the given events, stock and lease length
 * @param rerun       for a user's target, the command that reruns a check on it (without {@code --only}); else empty
 */
public record Target(String id, Kind kind, String description, String breaks, boolean sequential, StoreFactory factory,
                     String rerun) {

    /** A shipped target. */
    public Target(String id, Kind kind, String description, String breaks, boolean sequential, StoreFactory factory) {
        this(id, kind, description, breaks, sequential, factory, "");
    }

    /** What sort of target. */
    public enum Kind {
        CORRECT,
        /** The user's logic or store: like the correct one, it must pass. */
        USER,
        BROKEN_STORE,
        BROKEN_LOGIC
    }

    /** Builds a store; the same signature as the stores' constructors minus the logic. */
    @FunctionalInterface
    public interface StoreFactory {
        RelayStore create(List<Event> events, Map<String, Integer> stock, int leaseTicks);
    }

    /** Expected to pass: the correct store, or the user's target (which is judged as the user claims it correct). */
    public boolean isCorrect() {
        return kind == Kind.CORRECT || kind == Kind.USER;
    }

    /** Whether this target's store can produce the model's state; without it only outcome-only checks run. */
    public boolean hasSnapshot() {
        return newStore(StoreDomain.EVENTS, StoreDomain.STOCK, StoreDomain.LEASE_TICKS).snapshot().isPresent();
    }

    /** PASS for the correct store, CATCH for everything broken. */
    public String expect() {
        return isCorrect() ? "PASS" : "CATCH";
    }

    public RelayStore newStore(List<Event> events, Map<String, Integer> stock, int leaseTicks) {
        return factory.create(events, stock, leaseTicks);
    }
}
