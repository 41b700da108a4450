package dev.relaycheck.junit;

import dev.relaycheck.jdbc.Databases;
import dev.relaycheck.jdbc.DbTarget;
import dev.relaycheck.jdbc.RelayUnderTest;
import dev.relaycheck.jdbc.SqlRelay;
import dev.relaycheck.jdbc.SqlVariant;
import dev.relaycheck.jdbc.ClaimForm;
import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ScheduleConformance;
import dev.relaycheck.jdbc.conformance.ScheduleResult;
import dev.relaycheck.model.RandomSchedules;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import org.opentest4j.AssertionFailedError;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Property checks of a SQL relay (the team's adapter, or a shipped one) on embedded H2: the conformance check's
 * seeded schedules on the property's scenarios, every step judged by the model's invariants; then the shipped SQL
 * relay with each catalogue mistake that must break the property, each of which must be caught. A failure shows
 * the steps and the {@code relaycheck sql replay} line that replays them against the same relay.
 */
public final class SqlRelayProperties {
    /** Schedules per scenario for the relay under test (raise with -Drelaycheck.property.seeds=N). */
    static final int DEFAULT_SEEDS = 6;
    /** A negative control gets more tries per scenario; it stops at its first catch. */
    static final int CONTROL_SEEDS = 20;
    static final long BASE_SEED = 1;

    private final RelayUnderTest relay;

    SqlRelayProperties(RelayUnderTest relay) {
        this.relay = relay;
    }

    public SqlRelayProperties deliversEachEffectOnce() {
        return check(Property.EACH_EFFECT_ONCE);
    }

    public SqlRelayProperties keepsAggregateOrder() {
        return check(Property.AGGREGATE_ORDER);
    }

    public SqlRelayProperties rejectsStaleAcks() {
        return check(Property.STALE_ACKS_REJECTED);
    }

    public SqlRelayProperties producesAtomically() {
        return check(Property.ATOMIC_PRODUCE);
    }

    /** Checks {@code p} on the relay, then proves the check can fail with its negative controls. */
    public SqlRelayProperties check(Property p) {
        int seeds = Integer.getInteger("relaycheck.property.seeds", DEFAULT_SEEDS);
        Optional<Found> broke = firstViolation(relay, p.scenarios(), seeds);
        if (broke.isPresent()) {
            Found f = broke.get();
            String why = p.brokenBy(f.result().violation().invariant()) ? "" : " (not one of this property's invariants; "
                    + "a schedule stops at the first violation: fix it first)";
            throw new AssertionFailedError("relaycheck: relay " + relay.id() + " breaks the property \"" + p.claim() + "\" " + p.invariants() + "\n"
                    + "VIOLATION " + f.result().violation().invariant() + why + " in scenario " + f.result().scenario() + " at step "
                    + f.result().violationStep() + ": " + f.result().violation().detail() + "\n" + f.trace()
                    + TestReplay.replayLines(" -D" + TestReplay.SEED_PROPERTY + "=" + f.result().seed(), f.replayLine()));
        }
        List<String> escaped = new ArrayList<>();
        for (RelayLogic control : p.negativeControls()) {
            SqlVariant v = SqlVariant.byId(control.id()).orElseThrow();
            List<String> scenarios = new ArrayList<>();
            if (v.exposingScenario() != null) {
                scenarios.add(v.exposingScenario());
            }
            p.scenarios().stream().filter(s -> !scenarios.contains(s)).forEach(scenarios::add);
            Optional<Found> caught = firstViolation(RelayUnderTest.of(v, ClaimForm.SKIP_LOCKED), scenarios, CONTROL_SEEDS);
            if (caught.isEmpty() || !p.brokenBy(caught.get().result().violation().invariant())) {
                escaped.add(v.id());
            }
        }
        if (!escaped.isEmpty()) {
            throw new AssertionFailedError("relaycheck: the check that relay " + relay.id() + " has the property \"" + p.claim() + "\" cannot fail: "
                    + "the shipped SQL relay with the catalogue mistakes " + escaped + " got through it on " + p.scenarios());
        }
        return this;
    }

    /** A schedule that broke an invariant, its steps, and the line that replays it. */
    record Found(ScheduleResult result, String trace, String replayLine) {
    }

    /** The seeds a check runs, in order: the one a replay line gives first ({@code -Drelaycheck.seed}), then the derived ones. */
    private static List<Long> seeds(int count) {
        List<Long> seeds = new ArrayList<>();
        String replay = System.getProperty(TestReplay.SEED_PROPERTY);
        if (replay != null) {
            try {
                seeds.add(Long.parseLong(replay.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + TestReplay.SEED_PROPERTY + " must be a seed a replay line gave (a long), not '"
                        + replay + "'");
            }
        }
        for (int i = 0; i < count; i++) {
            seeds.add(SplitMix64.derive(BASE_SEED, i));
        }
        return seeds;
    }

    /** Seed-major over the scenarios, as the conformance check runs them; the first schedule that breaks an invariant. */
    private static Optional<Found> firstViolation(RelayUnderTest relay, List<String> scenarioNames, int seeds) {
        DbTarget h2 = DbTarget.h2();
        List<Scenario> scenarios = scenarioNames.stream().map(n -> ReferenceScenarios.byName(n).orElseThrow()).toList();
        List<Databases> dbs = new ArrayList<>();
        List<SqlRelay> worlds = new ArrayList<>();
        try {
            for (Scenario s : scenarios) {
                Databases d = h2.acquire(false);
                dbs.add(d);
                d.createSchema(relay.newAdapter());
                worlds.add(new SqlRelay(relay, s, d));
            }
            for (long seed : seeds(seeds)) {
                for (int k = 0; k < scenarios.size(); k++) {
                    // the model the relay's declarations choose (its token policy, order, deliver-and-ack), as ConformanceCheck's
                    RelayModel model = new RelayModel(relay.traits().modelLogic(), scenarios.get(k));
                    List<Step> schedule = RandomSchedules.walk(model, seed, ConformanceCheck.SCHEDULE_LENGTH);
                    StringBuilder trace = new StringBuilder();
                    ScheduleConformance.Trace lines = (n, phase, step, outcome, sql, diff) -> trace.append(String.format(
                            "  %3d %-5s %ssql %s%n", n, phase.startsWith("healing") ? "heal" : "",
                            step == null ? "" : "model " + step + " -> " + outcome + " | ", sql == null ? "(could not take the step)" : sql));
                    ScheduleResult r = new ScheduleConformance(worlds.get(k), model, lines).run(seed, schedule);
                    if (r.violation() != null) {
                        String replay = new ConformanceCheck.VariantResult(relay, h2, 1, r.steps(), 1, r, r.witnesses(),
                                new TreeMap<>(r.outcomeKinds()), 0, null).replayLine();
                        return Optional.of(new Found(r, trace.toString(), replay));
                    }
                }
            }
            return Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException("relay " + relay.id() + " on H2: " + e.getMessage(), e);
        } finally {
            worlds.forEach(SqlRelay::close);
            for (Databases d : dbs) {
                try {
                    h2.release(d);
                } catch (SQLException ignored) {
                    // in-memory databases of a finished check
                }
            }
        }
    }
}
