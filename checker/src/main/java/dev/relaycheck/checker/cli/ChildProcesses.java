package dev.relaycheck.checker.cli;

import java.util.List;

/**
 * Child processes die with relaycheck: jcstress and its forked JVMs, Lincheck's JVM, the SQL crash-kill
 * children. A shutdown hook (run on SIGTERM, SIGINT and every normal exit) kills every descendant of this
 * process; it takes the whole tree at once, because a jcstress fork whose parent died first is no longer
 * reachable from that parent.
 */
final class ChildProcesses {
    private static final int ROUNDS = 3; // a child may start a fork while the first round kills

    private ChildProcesses() {
    }

    static void dieWithParent() {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::killAllNow, "relaycheck-kill-children"));
    }

    /** Kills every descendant now (also from another hook, which cannot wait for this one). */
    static void killAllNow() {
        for (int round = 0; round < ROUNDS; round++) {
            List<ProcessHandle> alive = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
            if (alive.isEmpty()) {
                return;
            }
            alive.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
