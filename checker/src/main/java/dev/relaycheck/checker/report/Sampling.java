package dev.relaycheck.checker.report;

import dev.relaycheck.jdbc.result.SqlCheckResult;

import java.util.Set;

/**
 * Which results are the same bytes for the same inputs and which are samples of real-thread timing.
 *
 * <p>Deterministic: the model checker (exhaustive search), Lincheck's model checking (fixed internal seeds) and
 * the SQL conformance check (seeded schedules driven step by step). Sampled: everything that depends on how real
 * threads or processes happened to interleave (every jcstress count, Lincheck's stress mode and the protocol
 * run, the SQL races and crash-kills) and every wall-clock time. A sampled verdict is still a verdict: a forbidden
 * outcome seen once is a real bug; only its counts and the absence of a rare outcome vary.
 */
public final class Sampling {
    private static final Set<String> SAMPLED_CHECKS = Set.of("linearizability-stress", "relay-protocol",
            SqlCheckResult.RACE, SqlCheckResult.CRASH_KILL);

    private Sampling() {
    }

    public static boolean sampled(String checker, String check) {
        return checker.equals("jcstress") || SAMPLED_CHECKS.contains(check);
    }

    public static boolean sampled(CheckerRows c, CheckerRows.Row r) {
        return sampled(c.checker(), r.check());
    }

    /** One line for the report and summary.json, saying what varies between runs of the same inputs. */
    public static final String WHAT = "sampled: timings, every jcstress count and verdict, Lincheck stress and relay-protocol, "
            + "SQL races and crash-kills (real threads; counts differ run to run). Everything else is deterministic: "
            + "the same inputs give the same bytes.";
}
