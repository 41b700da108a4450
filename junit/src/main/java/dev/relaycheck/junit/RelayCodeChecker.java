package dev.relaycheck.junit;

import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.check.CodeCheck;
import dev.relaycheck.code.check.CodeReport;
import dev.relaycheck.code.run.RelayRun;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.command.ShellWords;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The team's relay checked by its own code from a test, as {@link CheckRelayCode} does it:
 * {@code RelayCodeChecker.of(new OutboxRelayCheck()).db("h2", "postgres").assertPasses()}. With
 * {@code -Drelaycheck.seed=N -Drelaycheck.strategy=S} (as a failure's replay line gives them) it runs that one
 * schedule, and fails with its trace while the relay still breaks an invariant there.
 */
public final class RelayCodeChecker {
    static final String STRATEGY_PROPERTY = "relaycheck.strategy";
    /** A shrunk failure's schedule, as its replay line gives it: the test runs exactly these steps. */
    static final String SCHEDULE_PROPERTY = "relaycheck.schedule";

    private final java.util.function.Supplier<? extends RelayFactory> factories;
    private final String name;
    private List<String> dbs = List.of("h2");
    private int runs = 40;
    private long seed = 1;
    private Settings settings = Settings.defaults();

    private RelayCodeChecker(java.util.function.Supplier<? extends RelayFactory> factories, String name) {
        this.factories = factories;
        this.name = name;
    }

    /** The team's factory class; each run gets a new instance. */
    public static RelayCodeChecker of(Class<? extends RelayFactory> factory) {
        return new RelayCodeChecker(dev.relaycheck.code.check.FactoryLoader.of(factory), factory.getName());
    }

    /** Factories made by {@code factories} (e.g. {@code OutboxRelayCheck::new}), a new one each run. */
    public static RelayCodeChecker of(java.util.function.Supplier<? extends RelayFactory> factories) {
        return new RelayCodeChecker(factories, factories.get().getClass().getName());
    }

    public RelayCodeChecker db(String... dbs) {
        this.dbs = List.of(dbs);
        return this;
    }

    public RelayCodeChecker runs(int runs) {
        this.runs = runs;
        return this;
    }

    public RelayCodeChecker seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** {@code unique} (the default) or {@code reused}. */
    public RelayCodeChecker instanceIds(String ids) {
        settings = settings.withInstanceIds(Settings.InstanceIds.parse(ids));
        return this;
    }

    /** Passes when every database's runs pass with what a pass needs reached; fails with every invariant broken. */
    public void assertPasses() {
        List<String> problems = check(Set.of());
        if (!problems.isEmpty()) {
            throw new AssertionFailedError(String.join("\n", problems));
        }
    }

    /** A negative control: passes when the check fails naming one of {@code expected} on every database. */
    public void assertViolates(Invariant... expected) {
        List<String> problems = check(Set.of(expected));
        if (!problems.isEmpty()) {
            throw new AssertionFailedError(String.join("\n", problems));
        }
    }

    private List<String> check(Set<Invariant> expected) {
        JUnitVersion.require();
        List<String> problems = new ArrayList<>();
        for (String dbName : dbs) {
            DbTarget db = target(dbName);
            String replaySeed = System.getProperty(TestReplay.SEED_PROPERTY);
            String replaySchedule = System.getProperty(SCHEDULE_PROPERTY);
            if (replaySchedule != null || replaySeed != null) {
                problems.addAll(replay(db, dbName, replaySeed == null ? 0 : Long.parseLong(replaySeed.strip()),
                        replaySchedule != null ? "schedule" : System.getProperty(STRATEGY_PROPERTY, "random"), replaySchedule, expected));
                continue;
            }
            CodeCheck.Outcome o;
            try {
                o = CodeCheck.check(factories, db, settings, runs, seed, i -> true, line -> { });
            } catch (java.sql.SQLException | RelayRun.Refused e) {
                throw new AssertionFailedError("relaycheck: relay " + name + " on " + dbName + " could not be checked: " + e.getMessage());
            }
            String text = CodeReport.text(name, o, f -> replayLine(dbName, f));
            if (expected.isEmpty()) {
                if (o.verdict() != CodeCheck.Verdict.PASSED) {
                    problems.add("relaycheck: " + text);
                }
            } else if (o.failures().keySet().stream().noneMatch(expected::contains)) {
                problems.add("relaycheck: expected relay " + name + " to break one of " + expected + " on " + dbName + ", but it did not:\n" + text);
            }
        }
        return problems;
    }

    private List<String> replay(DbTarget db, String dbName, long s, String strategy, String schedule, Set<Invariant> expected) {
        RunResult r;
        try {
            r = new RelayRun(factories.get(), db, settings, CodeCheck.strategy(strategy, s, settings, schedule), s).run();
        } catch (java.sql.SQLException | RelayRun.Refused e) {
            throw new AssertionFailedError("relaycheck: relay " + name + " could not be run: " + e.getMessage());
        }
        boolean broke = r.findings().stream().anyMatch(f -> expected.isEmpty() || expected.contains(f.invariant()));
        if (expected.isEmpty() == !broke) {
            return List.of();
        }
        return List.of("relaycheck: the schedule " + (schedule != null ? "'" + schedule + "'" : strategy + " seed " + s) + " on " + dbName + (r.failed() ? " breaks " + r.findings()
                : " breaks nothing") + "\n" + CodeReport.trace(r, 0));
    }

    /** {@code mvn test} of this test with the failure's schedule, then the CLI's line for the same. */
    private String replayLine(String db, CodeCheck.Failure f) {
        String schedule = ShellWords.quote(f.result().schedule());
        String args = f.shrunk() ? " -D" + SCHEDULE_PROPERTY + "=" + schedule
                : " -D" + TestReplay.SEED_PROPERTY + "=" + f.run().seed() + " -D" + STRATEGY_PROPERTY + "=" + f.run().strategy();
        String cli = "relaycheck code replay --relay " + name + " --classpath <your classes and dependencies> --db " + db
                + (f.shrunk() ? " --strategy schedule --schedule " + schedule : " --strategy " + f.run().strategy() + " --seed " + f.run().seed())
                + (settings.instanceIds() == Settings.InstanceIds.REUSED ? " --instance-ids reused" : "");
        return TestReplay.find().map(t -> t.line() + args + "\n    or: " + cli).orElse(cli);
    }

    private static DbTarget target(String db) {
        try {
            return DbTarget.named(db);
        } catch (java.io.IOException | IllegalArgumentException e) {
            throw new AssertionFailedError("relaycheck: database " + db + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "RelayCodeChecker[" + name + " on " + dbs + ", " + runs + " runs]";
    }
}
