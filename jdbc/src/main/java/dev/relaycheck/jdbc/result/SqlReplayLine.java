package dev.relaycheck.jdbc.result;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;

import java.util.List;

/**
 * {@code ./relaycheck sql replay} with the relay and database as the user gave them: what every SQL check's replay
 * line starts with (conformance adds the walk, crash-kill the cut, a race its seed).
 */
public final class SqlReplayLine {
    private SqlReplayLine() {
    }

    public static String of(RelayUnderTest relay, DbTarget db) {
        // the launcher as the user typed it (it passes its $0), as the model's replay lines start, so the line pastes
        // from the folder the user ran it in
        return quote(System.getProperty("relaycheck.command", "./relaycheck")) + " sql replay "
                + String.join(" ", quoted(relay.spec().args())) + " --db " + quote(db.arg());
    }

    private static List<String> quoted(List<String> args) {
        return args.stream().map(SqlReplayLine::quote).toList();
    }

    /** A shell word: quoted when it holds anything a shell would split or expand. */
    private static String quote(String s) {
        return s.matches("[A-Za-z0-9_./:=@%+,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
