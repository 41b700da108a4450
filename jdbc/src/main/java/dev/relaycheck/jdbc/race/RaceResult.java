package dev.relaycheck.jdbc.race;

import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.jdbc.result.SqlReplayLine;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Violation;

import java.util.ArrayList;
import java.util.Optional;
import java.util.regex.Pattern;

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
 * @param log           when a promised invariant broke: every step in the order its thread recorded its commit (empty
 *                      when clean)
 * @param end           the state read back from the tables at the end
 */
public record RaceResult(RaceConfig config, List<Violation> violations, int delivered, long steps, int grants, int reclaims,
                         int duplicates, int staleRejected, int lostAcks, int rollbacks, int crashes, int errors,
                         String firstError, long millis, List<Violation> unpromised, int sessionsEnded, int lockWaitsTimedOut,
                         int healingSteps, List<SqlFinding.Observed> log, RelayState end) {
    /** The fault-free poller that finishes a race past its deadline, as its steps name it in the log. */
    static final String HEALING_POLLER = "healer";

    public RaceResult {
        log = List.copyOf(log);
    }

    public boolean clean() {
        return violations.isEmpty();
    }

    /** The first violation as the report draws it ({@link #findings}). */
    public Optional<SqlFinding> finding(DbTarget target) {
        return findings(target).stream().findFirst();
    }

    /**
     * The first violation of each invariant broken, in the order they were found, as the report draws it: the steps that touched the
     * events it names (a race takes hundreds of steps, a finding is about one or two events), in the order they were
     * recorded, and the state at the end.
     */
    public List<SqlFinding> findings(DbTarget target) {
        List<SqlFinding> out = new ArrayList<>();
        java.util.Set<dev.relaycheck.model.Invariant> drawn = java.util.EnumSet.noneOf(dev.relaycheck.model.Invariant.class);
        for (Violation v : violations) {
            if (drawn.add(v.invariant())) {
                out.add(finding(target, v));
            }
        }
        return out;
    }

    private SqlFinding finding(DbTarget target, Violation v) {
        // the events it names, or those of the aggregate it names (AGGREGATE_ORDER names a SKU)
        List<String> all = config.scenario().events().stream().filter(e -> mentions(v.detail(), e.id())
                || mentions(v.detail(), e.aggregate())).map(e -> e.id()).toList();
        List<String> named = all.subList(0, Math.min(all.size(), MOST_ROWS_DRAWN));
        List<SqlFinding.Observed> touched = log.stream()
                .filter(o -> named.isEmpty() || named.stream().anyMatch(id -> mentions(o.step() + " " + o.outcome(), id))).toList();
        List<SqlFinding.Observed> steps = new ArrayList<>(touched.subList(Math.max(0, touched.size() - MOST_STEPS_DRAWN), touched.size()));
        steps.add(new SqlFinding.Observed(new Step.Tick(), "the race is over: the tables as it left them", "END", null, end, "end"));
        List<String> actors = new ArrayList<>(config.scenario().pollers());
        if (log.stream().anyMatch(o -> o.step().actor().equals(HEALING_POLLER))) {
            actors.add(HEALING_POLLER);
        }
        return new SqlFinding(SqlCheckResult.RACE, config.relay().id(), target.id(), v.invariant().name(), v.detail(), actors,
                named, steps,
                -1, config.pollers() + " poller threads, race seed " + config.seed() + ": "
                + (touched.size() > MOST_STEPS_DRAWN ? "the last " + MOST_STEPS_DRAWN + " of the " : "the ") + touched.size() + " steps"
                + (named.isEmpty() ? "" : " that touched " + String.join(", ", named)
                + (all.size() > named.size() ? " (the first " + named.size() + " of the " + all.size() + " events it names)" : ""))
                + " (of " + log.size() + " in all)"
                + ", in the order their commits were recorded (the threads' timing is not reproducible; nobody reads the tables "
                + "between commits, so only the end state is drawn)", replayLine(target));
    }

    /**
     * Every invariant broken, in order, with how often and its first violation: "4 violations of 2 invariants:
     * AGGREGATE_ORDER x3 (first: effects of ...); EFFECT_AT_MOST_ONCE x1 (first: ...)".
     */
    public String violationsText() {
        java.util.Map<dev.relaycheck.model.Invariant, List<Violation>> by = new java.util.LinkedHashMap<>(); // in the order found
        violations.forEach(v -> by.computeIfAbsent(v.invariant(), k -> new ArrayList<>()).add(v));
        List<String> each = by.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue().size() + " (first: "
                + e.getValue().get(0).detail() + ")").toList();
        return violations.size() + (violations.size() == 1 ? " violation" : " violations") + " of " + by.size()
                + (by.size() == 1 ? " invariant: " : " invariants: ") + String.join("; ", each);
    }

    /**
     * The command that races the relay again with this seed and configuration, printing REPRODUCED when that race
     * breaks a promised invariant. The seed fixes each poller's faults and stalls, not the threads' timing: a
     * finding that depends on one interleaving may need the line run more than once.
     */
    public String replayLine(DbTarget target) {
        return SqlReplayLine.of(config.relay(), target) + " --race-seed " + config.seed()
                + " --shared-database " + (config.sharedDatabase() ? "yes" : "no");
    }

    /** A race finding draws at most this many of its steps, the last ones (what led to the end state). */
    static final int MOST_STEPS_DRAWN = 120;
    /** ... and at most this many of the events it names, each a lane. */
    static final int MOST_ROWS_DRAWN = 4;

    /** Whether {@code text} names event {@code id} (E1 is not E12). */
    private static boolean mentions(String text, String id) {
        return Pattern.compile("\\b" + Pattern.quote(id) + "\\b").matcher(text).find();
    }

    public String summary() {
        return config.relay().id() + " (" + config.pollers() + " pollers, " + config.events()
                + " events, seed " + config.seed() + "): " + (clean() ? "clean" : violationsText()) + "; delivered " + delivered + ", " + steps + " transactions, " + grants + " grants, "
                + reclaims + " re-claims, " + duplicates + " duplicates absorbed, " + staleRejected + " stale tokens refused, "
                + lostAcks + " lost acks, " + rollbacks + " rollbacks, " + crashes + " crashes"
                + (sessionsEnded == 0 ? "" : " (" + sessionsEnded + " transactions ended by the database)")
                + (lockWaitsTimedOut == 0 ? "" : " (" + lockWaitsTimedOut + " lock waits past their limit)") + ", " + errors + " SQL errors"
                + (firstError == null ? "" : " (first: " + firstError + ")") + ", " + millis + " ms"
                + (healingSteps == 0 ? "" : " (past the deadline: finished by " + healingSteps + " fault-free steps)")
                + (unpromised.isEmpty() ? "" : "; not promised: " + unpromised.get(0) + (unpromised.size() > 1 ? " (+" + (unpromised.size() - 1) + " more)" : ""));
    }
}
