package dev.relaycheck.jdbc.crash;

import dev.relaycheck.jdbc.RelayUnderTest;

import java.util.List;

/**
 * One kill and recovery.
 *
 * @param relay      the relay the child and the recovering relay ran
 * @param db         the database kind
 * @param durable    H2 opened with WRITE_DELAY=0 (false: H2's default write delay)
 * @param cut        where the child was killed
 * @param nth        at which commit of that kind
 * @param batch      claim batch size
 * @param at         the child's report of where it stood ("AT ..."), or what it printed instead
 * @param exitCode   the killed child's exit status (137 = 128 + SIGKILL on Linux)
 * @param problems   what went wrong (empty: killed at the cut, commit durable, recovered completely)
 * @param recovery   the recovering relay's steps, one line each
 * @param unpromised broken invariants the relay does not promise: reported, not problems
 */
public record CrashRound(RelayUnderTest relay, String db, boolean durable, CutPoint cut, int nth, int batch, String at, int exitCode,
                         List<String> problems, List<String> recovery, List<String> unpromised) {
    public CrashRound {
        problems = List.copyOf(problems);
        recovery = List.copyOf(recovery);
        unpromised = List.copyOf(unpromised);
    }

    public boolean clean() {
        return problems.isEmpty();
    }

    public String summary() {
        return relay.id() + " on " + db + (durable ? "" : " (H2 default write delay)") + " killed " + cut.id() + " #" + nth + " (batch "
                + batch + ", exit " + exitCode + "): " + (clean() ? "recovered" : String.join("; ", problems))
                + (unpromised.isEmpty() ? "" : "; not promised: " + String.join("; ", unpromised));
    }
}
