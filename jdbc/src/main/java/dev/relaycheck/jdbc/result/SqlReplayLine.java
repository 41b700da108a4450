package dev.relaycheck.jdbc.result;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.model.command.Launcher;
import dev.relaycheck.model.command.ShellWords;

/**
 * {@code ./relaycheck sql replay} with the relay and database as the user gave them: what every SQL check's replay
 * line starts with (conformance adds the walk, crash-kill the cut, a race its seed).
 */
public final class SqlReplayLine {
    private SqlReplayLine() {
    }

    public static String of(RelayUnderTest relay, DbTarget db) {
        return Launcher.typed() + " sql replay " + ShellWords.join(relay.spec().args())
                + " --db " + ShellWords.quote(db.arg());
    }
}
