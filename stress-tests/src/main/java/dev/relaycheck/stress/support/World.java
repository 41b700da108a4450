package dev.relaycheck.stress.support;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.store.RelayStore;
import dev.relaycheck.model.store.RelayStores;
import dev.relaycheck.model.store.UserTarget;

import java.util.List;
import java.util.Map;

/**
 * What a harness starts from (the events already in the outbox, the consumer's stock, the lease length), and
 * the three ways a nested test puts a target into it: a catalogue logic in the shipped store that expresses it
 * ({@link RelayStores#shipped}: the check-then-act claim runs on the store that reads first and writes later),
 * the correct logic in one of the broken stores, or the user's target named by the forked JVM's system
 * properties. Each nested test then only says which; the race itself lives once, in the harness's base class.
 */
public record World(List<Event> events, Map<String, Integer> stock, int leaseTicks) {

    /** A store class's constructor, as the shipped store and its broken subclasses all have it. */
    @FunctionalInterface
    public interface StoreConstructor {
        RelayStore create(RelayLogic logic, List<Event> events, Map<String, Integer> stock, int leaseTicks);
    }

    /** {@code logic} in the shipped store that expresses it. */
    public RelayRace.Subject with(RelayLogic logic) {
        return new RelayRace.Subject(logic, RelayStores.shipped(logic, events, stock, leaseTicks));
    }

    /** {@code logic} in the store {@code constructor} builds: a broken store, raced under the correct logic. */
    public RelayRace.Subject in(RelayLogic logic, StoreConstructor constructor) {
        return new RelayRace.Subject(logic, constructor.create(logic, events, stock, leaseTicks));
    }

    /**
     * The user's target (relaycheck stress --logic CLASS and/or --store CLASS, --classpath JAR): their logic in the
     * shipped store, or their own store, loaded in this forked JVM from the jar the system properties name. It
     * never falls back to a shipped class: if the user's classes cannot be loaded, the state cannot be built and
     * the test errors out.
     */
    public RelayRace.Subject ofUser() {
        UserTarget user = UserTarget.fromSystemProperties();
        return new RelayRace.Subject(user.logic(), user.newStore(events, stock, leaseTicks));
    }
}
