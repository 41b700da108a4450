package dev.relaycheck.jdbc.crash;

import dev.relaycheck.model.Scenario;

/** What parent and child agree on: the scenario and the pollers' names. */
final class CrashWorld {
    private CrashWorld() {
    }

    static final String CHILD_POLLER = "relay-1";
    static final String RECOVERY_POLLER = "relay-2";

    /** Four events over two SKUs, produced by the child itself, so every cut point is on the way. */
    static Scenario scenario(int batch) {
        return Scenario.builder("crash-kill").pollers(CHILD_POLLER, RECOVERY_POLLER)
                .stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 2).event("E2", "SKU-2", 1).event("E3", "SKU-1", 3).event("E4", "SKU-2", 4)
                .batch(batch).leaseTicks(2).producedDuringRun(true).build();
    }
}
