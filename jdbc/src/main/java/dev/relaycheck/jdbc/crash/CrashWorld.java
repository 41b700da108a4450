package dev.relaycheck.jdbc.crash;

import dev.relaycheck.jdbc.Databases;
import dev.relaycheck.model.Scenario;

import java.nio.file.Path;

/** What parent and child agree on: the scenario, where the files are, how the databases are opened. */
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

    /** H2 file options: durable commits, or H2's default write delay (the durability negative control). */
    static String options(boolean durable) {
        return durable ? Databases.DURABLE_FILE_OPTIONS : ";LOCK_TIMEOUT=10000";
    }

    /** Creates the files if they are missing (the parent's setup). */
    static Databases databases(Path dir, boolean durable) {
        return Databases.files(dir, options(durable));
    }

    /** Opens files that must already exist: a relay restarted on missing files must fail, not start empty. */
    static Databases existing(Path dir, boolean durable) {
        return Databases.files(dir, options(durable) + ";IFEXISTS=TRUE");
    }
}
