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
 * @param timedOut   empty, or why the round proved nothing: its child ran past the time limit on both tries (a
 *                   loaded machine does that to a correct relay), so it is neither clean nor a problem
 */
public record CrashRound(RelayUnderTest relay, String db, boolean durable, CutPoint cut, int nth, int batch, String at, int exitCode,
                         List<String> problems, List<String> recovery, List<String> unpromised, String timedOut) {
    public CrashRound {
        problems = List.copyOf(problems);
        recovery = List.copyOf(recovery);
        unpromised = List.copyOf(unpromised);
    }

    /** Killed at the cut, commit durable, recovered completely. */
    public boolean clean() {
        return problems.isEmpty() && concluded();
    }

    /** The child answered within its time limit (on the first try or the second), so the round says something. */
    public boolean concluded() {
        return timedOut.isEmpty();
    }

    /**
     * The command that kills the relay at the same commit again and recovers (same cut point, n-th commit and batch:
     * the child stops at that commit every time), printing REPRODUCED when the recovery has the same kind of problem.
     */
    public String replayLine(dev.relaycheck.jdbc.DbTarget target) {
        return dev.relaycheck.jdbc.conformance.ConformanceCheck.replayCommand(relay, target) + " --cut " + cut.id()
                + " --nth " + nth + " --batch " + batch;
    }

    public String summary() {
        return relay.id() + " on " + db + (durable ? "" : " (H2 default write delay)") + " killed " + cut.id() + " #" + nth + " (batch "
                + batch + ", exit " + exitCode + "): " + (!concluded() ? "INCONCLUSIVE: " + timedOut
                : clean() ? "recovered" : String.join("; ", problems))
                + (unpromised.isEmpty() ? "" : "; not promised: " + String.join("; ", unpromised));
    }
}
