package dev.relaycheck.jdbc.crash;

import dev.relaycheck.jdbc.relay.RelayUnderTest;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.jdbc.result.SqlReplayLine;

import java.util.List;
import java.util.Optional;

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
 * @param story      what the report draws: the child's steps, the kill, and the recovery's steps with the state read back
 *                   around each
 * @param culprit    the index in {@code story} of the recovery step that broke a promised invariant, -1 when none did
 *                   (the state at the end did, or nothing broke)
 * @param timedOut   empty, or why the round proved nothing: its child ran past the time limit on both tries (a
 *                   loaded machine does that to a correct relay), so it is neither clean nor a problem
 */
public record CrashRound(RelayUnderTest relay, String db, boolean durable, CutPoint cut, int nth, int batch, String at, int exitCode,
                         List<String> problems, List<String> recovery, List<String> unpromised, List<SqlFinding.Observed> story,
                         int culprit, String timedOut) {
    public CrashRound {
        problems = List.copyOf(problems);
        recovery = List.copyOf(recovery);
        unpromised = List.copyOf(unpromised);
        story = List.copyOf(story);
    }

    /** A concluded round's problem as the report draws it: the first problem names the invariant (empty when clean). */
    public Optional<SqlFinding> finding(DbTarget target) {
        if (clean() || !concluded()) {
            return Optional.empty();
        }
        String first = problems.get(0);
        int colon = first.indexOf(": ");
        boolean named = colon > 0 && first.substring(0, colon).matches("[A-Z_]+");
        return Optional.of(new SqlFinding(SqlCheckResult.CRASH_KILL, relay.id(), db, named ? first.substring(0, colon) : "crash-kill problem",
                named ? first.substring(colon + 2) : first, List.of(CrashWorld.CHILD_POLLER, CrashWorld.RECOVERY_POLLER), List.of(), story,
                culprit,
                relay.id() + " killed " + cut.id() + " #" + nth + " (batch " + batch + "): " + CrashWorld.CHILD_POLLER
                        + " ran in a child JVM (its steps as it printed them; nobody reads the tables between its commits), then a fresh "
                        + CrashWorld.RECOVERY_POLLER + " recovered, the state read back after every step", replayLine(target)));
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
    public String replayLine(DbTarget target) {
        return SqlReplayLine.of(relay, target) + " --cut " + cut.id()
                + " --nth " + nth + " --batch " + batch;
    }

    public String summary() {
        return relay.id() + " on " + db + (durable ? "" : " (H2 default write delay)") + " killed " + cut.id() + " #" + nth + " (batch "
                + batch + ", exit " + exitCode + "): " + (!concluded() ? "INCONCLUSIVE: " + timedOut
                : clean() ? "recovered" : String.join("; ", problems))
                + (unpromised.isEmpty() ? "" : "; not promised: " + String.join("; ", unpromised));
    }
}
