package dev.relaycheck.lincheck;

import dev.relaycheck.model.store.RelayStore;

import java.util.function.Supplier;

/**
 * Which target {@link RelayStoreOperations} builds its store for. Lincheck creates the test class itself,
 * through its public no-argument constructor, so the only way to point one test class at many targets is
 * a value the constructor reads; {@link #during} sets it for exactly one check run, one run at a time.
 */
final class TargetUnderTest {
    private static final Object ONE_RUN_AT_A_TIME = new Object();
    private static volatile Target current;

    private TargetUnderTest() {
    }

    static <T> T during(Target target, Supplier<T> run) {
        synchronized (ONE_RUN_AT_A_TIME) {
            current = target;
            try {
                return run.get();
            } finally {
                current = null;
            }
        }
    }

    static RelayStore newStore() {
        Target t = current;
        if (t == null) {
            throw new IllegalStateException("RelayStoreOperations is created by a Lincheck check run, not directly");
        }
        return t.newStore(StoreDomain.EVENTS, StoreDomain.STOCK, StoreDomain.LEASE_TICKS);
    }
}
