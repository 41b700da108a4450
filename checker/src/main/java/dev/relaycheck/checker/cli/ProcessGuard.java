package dev.relaycheck.checker.cli;

import dev.relaycheck.model.DecisionWatch;
import dev.relaycheck.model.LogicError;

import java.io.PrintStream;

/**
 * The process ends with relaycheck's verdict, whatever the logic under test does: a {@code System.exit} that did
 * not come from relaycheck (from a decision of the logic, or from anything else it loaded) ends the process with
 * one line and a non-zero code instead of the code it asked for, which CI would read as a verdict; a decision that
 * does not return within {@link DecisionWatch#limit()} is a LOGIC-ERROR (exit 6) with its question and stack.
 */
final class ProcessGuard {
    private static volatile boolean ownExit;

    private ProcessGuard() {
    }

    /** For the real process only (main): the hook and the hang handler. */
    static void install() {
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessGuard::onExit, "relaycheck-exit-guard"));
        DecisionWatch.onHang(ProcessGuard::hung);
    }

    /** relaycheck's own exit: the only one whose code stands. */
    static void exit(int code) {
        ownExit = true;
        System.exit(code);
    }

    /** A hook: an exit the process did not ask for (a signal has no exiting thread, and keeps its code). */
    private static void onExit() {
        if (ownExit) {
            return;
        }
        Thread exiting = DecisionWatch.exitingThread().orElse(null);
        if (exiting == null) {
            return;
        }
        String decision = DecisionWatch.exitFromDecision().orElse(null);
        String line = decision != null ? decision : "relaycheck: internal error: System.exit was called "
                + DecisionWatch.exitCaller(exiting.getStackTrace()).map(f -> "at " + LogicError.frame(f) + " ").orElse("")
                + "while relaycheck was running, which is no verdict";
        System.out.flush();
        System.err.println(line);
        System.err.flush();
        // halt: the only way to replace the code exit asked for; the children go first, as their own hook would
        ChildProcesses.killAllNow();
        Runtime.getRuntime().halt(decision != null ? ExitCodes.LOGIC_ERROR : ExitCodes.INTERNAL);
    }

    /** The watchdog's thread: the report, then the process ends (the thread asked is still inside the logic). */
    private static void hung(LogicError e) {
        PrintStream out = System.out;
        out.println(e.lineWithStack());
        out.flush();
        exit(ExitCodes.LOGIC_ERROR);
    }
}
