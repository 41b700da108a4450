package dev.relaycheck.junit;

import dev.relaycheck.jdbc.conformance.ConformanceCheck;
import dev.relaycheck.jdbc.conformance.ScheduleConformance;
import dev.relaycheck.jdbc.conformance.ScheduleResult;
import dev.relaycheck.jdbc.db.Databases;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.world.Schema;
import dev.relaycheck.jdbc.world.SqlWorld;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RandomSchedules;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.Witness;
import org.opentest4j.AssertionFailedError;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Property checks of a SQL relay (the team's adapter, or a shipped one) on embedded H2: the conformance check's
 * seeded schedules on the property's scenarios, every step judged by the property's invariants; then the shipped SQL
 * relay with each catalogue mistake that must break the property, each of which must be caught. A failure shows,
 * for every invariant of the property broken, the steps and the {@code relaycheck sql replay} line that replays them
 * against the same relay. Every result names what it ran and what it did not ({@link Coverage}): the race and
 * crash-kill checks, and the scenarios the property does not run, are {@code relaycheck check}'s.
 */
public final class SqlRelayProperties {
    /** Schedules per scenario for the relay under test (raise with -Drelaycheck.property.seeds=N). */
    static final int DEFAULT_SEEDS = 6;
    /** A negative control gets more tries per scenario; it stops at its first catch. */
    static final int CONTROL_SEEDS = 20;
    static final long BASE_SEED = 1;

    private final RelayUnderTest relay;
    private final List<PropertyResult> results = new ArrayList<>();

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

    /** The properties checked so far, in order, each with what it ran and left out. */
    public List<PropertyResult> results() {
        return List.copyOf(results);
    }

    /**
     * Checks {@code p} on the relay, judging the property's invariants alone (a schedule goes on through a violation
     * of another), then proves the check can fail with its negative controls. A failure names every invariant of the
     * property broken, each with the first schedule that broke it; pass or fail, the result names what it ran and
     * what it did not.
     */
    public SqlRelayProperties check(Property p) {
        Set<Invariant> disclaimed = EnumSet.copyOf(p.invariants());
        disclaimed.retainAll(relay.traits().notPromised());
        if (disclaimed.equals(p.invariants())) {
            throw new AssertionFailedError("relaycheck: relay " + relay.id() + " declares it does not promise " + disclaimed
                    + ", so it cannot have the property \"" + p.claim() + "\": nothing of it was checked (drop the check, or "
                    + "the declaration)");
        }
        int seeds = Integer.getInteger("relaycheck.property.seeds", DEFAULT_SEEDS);
        Runs runs = violations(relay, p.scenarios(), seeds, p.invariants(), true);
        PropertyResult result = new PropertyResult("relay " + relay.id() + (disclaimed.isEmpty() ? ""
                : " (which declares it does not promise " + disclaimed + ": checked, reported, never a failure)"),
                p, runs.found().isEmpty(), Coverage.of(
                p.scenarios().stream().map(n -> ReferenceScenarios.byName(n).orElseThrow()).toList(), runs.reached(),
                List.of("race (real threads)", "crash-kill (real process kills)")));
        results.add(result);
        System.out.println(result.line());
        if (!runs.found().isEmpty()) {
            StringBuilder b = new StringBuilder(result.line()).append('\n');
            for (Found f : runs.found()) {
                b.append("VIOLATION ").append(f.result().violation().invariant()).append(" in scenario ").append(f.result().scenario())
                        .append(" at step ").append(f.result().violationStep()).append(": ").append(f.result().violation().detail())
                        .append('\n').append(f.trace())
                        .append(TestReplay.replayLines(" -D" + TestReplay.SEED_PROPERTY + "=" + f.result().seed(), f.replayLine()));
            }
            throw new AssertionFailedError(b.toString());
        }
        List<String> escaped = new ArrayList<>();
        for (RelayLogic control : p.negativeControls()) {
            SqlVariant v = SqlVariant.byId(control.id()).orElseThrow();
            List<String> scenarios = new ArrayList<>();
            if (v.exposingScenario() != null) {
                scenarios.add(v.exposingScenario());
            }
            p.scenarios().stream().filter(s -> !scenarios.contains(s)).forEach(scenarios::add);
            if (violations(RelayUnderTest.of(v, ClaimForm.SKIP_LOCKED), scenarios, CONTROL_SEEDS, p.invariants(), false).found().isEmpty()) {
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

    /** What a property check's schedules found: per invariant the first schedule that broke it; the witnesses seen. */
    record Runs(List<Found> found, Set<Witness> reached) {
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

    /**
     * Seed-major over the scenarios, as the conformance check runs them, judging {@code judged} alone: the first
     * schedule that broke each invariant ({@code every}), or the first that broke any.
     */
    private static Runs violations(RelayUnderTest relay, List<String> scenarioNames, int seeds, Set<Invariant> judged,
                                   boolean every) {
        DbTarget h2 = DbTarget.h2();
        List<Scenario> scenarios = scenarioNames.stream().map(n -> ReferenceScenarios.byName(n).orElseThrow()).toList();
        List<Databases> dbs = new ArrayList<>();
        List<SqlWorld> worlds = new ArrayList<>();
        List<Found> found = new ArrayList<>();
        Set<Witness> reached = EnumSet.noneOf(Witness.class);
        try {
            for (Scenario s : scenarios) {
                Databases d = h2.acquire(false);
                dbs.add(d);
                Schema.create(d, relay.newAdapter());
                worlds.add(new SqlWorld(relay, s, d));
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
                    ScheduleResult r = new ScheduleConformance(worlds.get(k), model, lines).judging(judged).run(seed, schedule);
                    reached.addAll(r.witnesses());
                    if (r.violation() != null && found.stream().noneMatch(f -> f.result().violation().invariant() == r.violation().invariant())) {
                        String replay = new ConformanceCheck.VariantResult(relay, h2, 1, r.steps(), 1, r, r.witnesses(),
                                new TreeMap<>(r.outcomeKinds()), 0, null).replayLine() // judged as here: the same invariant first
                                + " --judge " + judged.stream().sorted().map(Enum::name).collect(Collectors.joining(","));
                        found.add(new Found(r, trace.toString(), replay));
                        if (!every || found.size() == judged.size()) {
                            return new Runs(found, reached);
                        }
                    }
                }
            }
            return new Runs(found, reached);
        } catch (SQLException e) {
            throw new IllegalStateException("relay " + relay.id() + " on H2: " + e.getMessage(), e);
        } finally {
            worlds.forEach(SqlWorld::close);
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
