package dev.relaycheck.jdbc.race;

import dev.relaycheck.model.Violation;

import java.util.List;

/**
 * What a race did and what broke.
 *
 * @param config        the race
 * @param violations    invariants broken (empty: every event DELIVERED once, one marker each, stock exact, ...)
 * @param delivered     events DELIVERED at the end
 * @param steps         poller transactions run
 * @param grants        leases granted (re-claims included)
 * @param reclaims      grants that took over an expired lease
 * @param duplicates    deliveries answered DUPLICATE
 * @param staleRejected acknowledgements and releases refused for a stale token
 * @param lostAcks      acknowledgements lost after the consumer committed
 * @param rollbacks     consumer transactions rolled back
 * @param crashes       poller crashes
 * @param errors        SQL errors a poller hit (each handled as a crash); the first is in {@code firstError}
 * @param millis        wall time of the race
 * @param unpromised    broken invariants the relay does not promise: reported, not violations
 * @param sessionsEnded transactions the database ended (a server-side timeout such as PostgreSQL's
 *                      idle_in_transaction_session_timeout), each handled as a crash of its poller
 * @param lockWaitsTimedOut lock waits past their limit (time-based: a loaded machine, never the relay's error), each
 *                      handled as a crash of its poller
 * @param healingSteps  0 when every row was delivered by the deadline; else the steps a fault-free poller took to
 *                      finish after it (a deadline passed on a loaded machine is no violation)
 */
public record RaceResult(RaceConfig config, List<Violation> violations, int delivered, long steps, int grants, int reclaims,
                         int duplicates, int staleRejected, int lostAcks, int rollbacks, int crashes, int errors,
                         String firstError, long millis, List<Violation> unpromised, int sessionsEnded, int lockWaitsTimedOut,
                         int healingSteps) {

    public boolean clean() {
        return violations.isEmpty();
    }

    /**
     * The command that races the relay again with this seed and configuration, printing REPRODUCED when that race
     * breaks a promised invariant. The seed fixes each poller's faults and stalls, not the threads' timing: a
     * finding that depends on one interleaving may need the line run more than once.
     */
    public String replayLine(dev.relaycheck.jdbc.DbTarget target) {
        return dev.relaycheck.jdbc.conformance.ConformanceCheck.replayCommand(config.relay(), target) + " --race-seed " + config.seed()
                + " --shared-database " + (config.sharedDatabase() ? "yes" : "no");
    }

    public String summary() {
        return config.relay().id() + " (" + config.pollers() + " pollers, " + config.events()
                + " events, seed " + config.seed() + "): " + (clean() ? "clean" : violations.size() + " violation(s), first "
                + violations.get(0)) + "; delivered " + delivered + ", " + steps + " transactions, " + grants + " grants, "
                + reclaims + " re-claims, " + duplicates + " duplicates absorbed, " + staleRejected + " stale tokens refused, "
                + lostAcks + " lost acks, " + rollbacks + " rollbacks, " + crashes + " crashes"
                + (sessionsEnded == 0 ? "" : " (" + sessionsEnded + " transactions ended by the database)")
                + (lockWaitsTimedOut == 0 ? "" : " (" + lockWaitsTimedOut + " lock waits past their limit)") + ", " + errors + " SQL errors"
                + (firstError == null ? "" : " (first: " + firstError + ")") + ", " + millis + " ms"
                + (healingSteps == 0 ? "" : " (past the deadline: finished by " + healingSteps + " fault-free steps)")
                + (unpromised.isEmpty() ? "" : "; not promised: " + unpromised.get(0) + (unpromised.size() > 1 ? " (+" + (unpromised.size() - 1) + " more)" : ""));
    }
}
