package dev.relaycheck.checker.replay;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.logic.LogicLoader;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.command.Launcher;
import dev.relaycheck.model.command.ShellWords;

/**
 * The command line that replays a counterexample, pasteable as is: it starts with the launcher as the user
 * typed it ({@link Launcher}), and a user's logic needs the --classpath it was loaded with (as the user gave it,
 * quoted for the shell when it has to be).
 */
public final class ReplayLine {
    private ReplayLine() {
    }

    public static String of(Counterexample cx) {
        return of(ReplayRecord.of(cx), cx.logic());
    }

    /** The line that replays a logic fault up to where the logic failed. */
    public static String of(LogicFault fault) {
        return of(ReplayRecord.of(fault), fault.logic());
    }

    /** The line that replays {@code record} of {@code logic} (a record of the regression corpus). */
    public static String of(ReplayRecord record, dev.relaycheck.model.RelayLogic logic) {
        String line = Launcher.typed() + " replay " + record.toToken();
        return LogicLoader.classpathOf(logic).map(cp -> line + " --classpath " + ShellWords.quote(cp)).orElse(line);
    }
}
