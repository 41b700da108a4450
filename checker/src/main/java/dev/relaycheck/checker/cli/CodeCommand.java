package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.check.CodeCheck;
import dev.relaycheck.code.check.CodeReport;
import dev.relaycheck.code.check.FactoryLoader;
import dev.relaycheck.code.observe.OutboxReader;
import dev.relaycheck.code.run.RelayRun;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.jdbc.db.DbTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code relaycheck code}: the team's relay checked by its own code. The user names a {@link RelayFactory} (its
 * relay's constructor, its producer, its outbox query) and the class path it comes from; relaycheck runs seeded
 * schedules of the relay's statements on H2 or PostgreSQL and judges what happened. {@code relaycheck code replay}
 * runs one of them again, statement by statement.
 */
@Command(name = "code", description = "Check your relay's own code: relaycheck drives its instances through a DataSource, "
        + "a Clock and instance ids of its own, one statement at a time, with crashes, lost commits and consumer failures; "
        + "e.g. 'relaycheck code --relay com.acme.OutboxRelayCheck --classpath target/classes:... --db h2,postgres'. "
        + "'code replay' runs one schedule again as a failure prints it.",
        subcommands = CodeCommand.Replay.class)
final class CodeCommand implements Callable<Integer> {

    /** The options every form shares: the relay, its class path, the world it runs in. */
    static final class RelayOptions {
        @Option(names = "--relay", paramLabel = "CLASS",
                description = "your dev.relaycheck.code.RelayFactory (a public class with a no-argument constructor)")
        String relay;
        @Option(names = "--classpath", paramLabel = "JAR[:DIR...]", description = "where your relay and its dependencies are")
        String classpath;
        @Option(names = "--instance-ids", paramLabel = "unique|reused", defaultValue = "unique",
                description = "does an instance that starts in another's place get a new id (unique, default) or the same "
                        + "(reused: a pod's stable name), also while the other still runs")
        String instanceIds;
        @Option(names = "--instances", paramLabel = "N", defaultValue = "2", description = "relay instances at once (default 2)")
        int instances;
        @Option(names = "--events", paramLabel = "N", defaultValue = "3", description = "events written (default 3)")
        int events;
        @Option(names = "--steps", paramLabel = "N", defaultValue = "60", description = "steps with faults before the healing phase (default 60)")
        int steps;
        @Option(names = "--bound", paramLabel = "SECONDS", defaultValue = "10",
                description = "how long an instance may run between two statements before the run counts as not progressing (default 10)")
        int bound;

        Settings settings() {
            if (instances < 1 || events < 1 || steps < 0 || bound < 1) {
                throw new UsageException("--instances, --events and --bound must be at least 1, --steps at least 0");
            }
            try {
                Settings s = Settings.defaults().withInstanceIds(Settings.InstanceIds.parse(instanceIds)).withSize(instances, events, steps);
                return s.withBound(Duration.ofSeconds(bound));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--" + e.getMessage());
            }
        }

        java.util.function.Supplier<RelayFactory> factory() {
            if (relay == null || relay.isBlank()) {
                throw new UsageException("--relay CLASS is required: your dev.relaycheck.code.RelayFactory");
            }
            try {
                return FactoryLoader.load(relay, classpath);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }

        /** The options beside the relay that make a replay line run the same world. */
        List<String> world() {
            List<String> a = new ArrayList<>();
            if (!instanceIds.equals("unique")) {
                a.addAll(List.of("--instance-ids", instanceIds));
            }
            if (instances != 2) {
                a.addAll(List.of("--instances", String.valueOf(instances)));
            }
            if (events != 3) {
                a.addAll(List.of("--events", String.valueOf(events)));
            }
            if (steps != 60) {
                a.addAll(List.of("--steps", String.valueOf(steps)));
            }
            return a;
        }
    }

    @Spec
    CommandSpec spec;
    @Mixin
    RelayOptions relay;
    @Option(names = "--db", paramLabel = "DB[,DB]", defaultValue = "h2", split = ",",
            description = "h2 (embedded, default), postgres (a server relaycheck starts) or a jdbc:postgresql:// URL; several with commas")
    List<String> dbs;
    @Option(names = "--runs", paramLabel = "N", defaultValue = "40", description = "seeded schedules per database (default 40)")
    int runs;
    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "base seed; run i uses SplitMix64.derive(seed, i) (default 1)")
    long seed;
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/code", description = "where the report goes (default results/code)")
    Path out;
    @Mixin
    ShardOption shard = new ShardOption();
    @Option(names = "--shrink", paramLabel = "N", description = "runs spent shrinking each failure's schedule (default 40 on H2, "
            + "12 on PostgreSQL; 0: the schedule as its seed made it), for a relay whose runs are costly")
    Integer shrink;

    @Override
    public Integer call() throws Exception {
        if (runs < 1) {
            throw new UsageException("--runs must be at least 1");
        }
        if (shrink != null && shrink < 0) {
            throw new UsageException("--shrink must be at least 0, not " + shrink);
        }
        Settings settings = relay.settings();
        java.util.function.Supplier<RelayFactory> factory = relay.factory();
        dev.relaycheck.model.shard.Shard part = shard.shard();
        if (!part.whole() && dbs.size() != 1) {
            throw new UsageException("--shard runs on one database: give one --db");
        }
        PrintWriter o = spec.commandLine().getOut();
        List<CodeCheck.Outcome> outcomes = new ArrayList<>();
        for (String name : dbs) {
            DbTarget db = target(name);
            o.println("relay " + relay.relay + " on " + db.id() + ": " + runs + " runs" + (part.whole() ? "" : ", shard " + part) + " ...");
            try {
                outcomes.add(CodeCheck.check(factory, db, settings, runs, seed, part::owns, line -> { },
                        shrink == null ? CodeCheck.shrinkAttempts(db) : shrink));
            } catch (RelayRun.Refused | OutboxReader.BadQuery e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (!part.whole()) {
            return shard.finish(o, "code", spec, out, outcomes.get(0).rows());
        }
        return report(outcomes, o);
    }

    /**
     * The outcome of one check over the runs of every shard in {@code files}: the counts added up, each invariant's
     * first run walked again and shrunk here; written and exited as that check would be.
     */
    int merge(List<dev.relaycheck.model.shard.ShardFile> files, Path into) throws Exception {
        out = into;
        List<List<String>> rows = new ArrayList<>();
        files.forEach(f -> rows.addAll(f.rows()));
        CodeCheck.Outcome o;
        try {
            o = CodeCheck.merge(relay.factory(), target(dbs.get(0)), relay.settings(), seed, rows);
        } catch (RelayRun.Refused | OutboxReader.BadQuery e) {
            throw new UsageException(e.getMessage());
        }
        if (o.runs() != runs) {
            throw new UsageException("merge: the shards ran " + o.runs() + " of the " + runs + " runs");
        }
        return report(List.of(o), spec.commandLine().getOut());
    }

    /** Prints, writes report.txt and index.html, and returns the exit of the worst verdict. */
    private int report(List<CodeCheck.Outcome> outcomes, PrintWriter o) throws IOException {
        StringBuilder report = new StringBuilder();
        List<CodeCheck.Verdict> verdicts = new ArrayList<>();
        java.util.Map<CodeCheck.Outcome, String> dbNames = new java.util.IdentityHashMap<>();
        for (int k = 0; k < outcomes.size(); k++) {
            CodeCheck.Outcome outcome = outcomes.get(k);
            String name = dbs.get(k);
            String text = CodeReport.text(relay.relay, outcome, f -> replayLine(name, f));
            o.print(text.substring(text.indexOf('\n') + 1));
            report.append(text).append('\n');
            verdicts.add(outcome.verdict());
            dbNames.put(outcome, name);
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("report.txt"), report);
        Files.writeString(out.resolve("index.html"), dev.relaycheck.checker.report.CodeHtml.page(relay.relay, outcomes,
                f -> replayLine(outcomes.stream().filter(x -> x.failures().containsValue(f)).findFirst().map(dbNames::get).orElse("h2"), f)));
        CodeCheck.Verdict worst = verdicts.contains(CodeCheck.Verdict.FAILED) ? CodeCheck.Verdict.FAILED
                : verdicts.contains(CodeCheck.Verdict.INCONCLUSIVE) ? CodeCheck.Verdict.INCONCLUSIVE
                : verdicts.contains(CodeCheck.Verdict.VACUOUS) ? CodeCheck.Verdict.VACUOUS : CodeCheck.Verdict.PASSED;
        o.println("verdict: " + worst + " for relay " + relay.relay + " on " + String.join(", ", dbs) + " (report: " + out.resolve("index.html") + ")");
        return exit(worst);
    }

    static int exit(CodeCheck.Verdict v) {
        return switch (v) {
            case PASSED -> ExitCodes.CLEAN;
            case FAILED -> ExitCodes.VIOLATION;
            case INCONCLUSIVE -> ExitCodes.INCOMPLETE;
            case VACUOUS -> ExitCodes.VACUOUS;
        };
    }

    /** The line that runs a failure's (shrunk) schedule again. */
    private String replayLine(String db, CodeCheck.Failure f) {
        return dev.relaycheck.checker.report.CodeReplay.line(relay.relay, relay.classpath, relay.world(), db, f);
    }

    static DbTarget target(String name) {
        try {
            return DbTarget.named(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (IOException e) {
            throw new UsageException("PostgreSQL could not start: " + e.getMessage());
        }
    }

    /** {@code relaycheck code replay}: one run again, every step printed; exit 1 when it breaks an invariant again. */
    @Command(name = "replay", description = "Run one schedule of your relay's code again, statement by statement, as a "
            + "failure's replay line gives it. Exit 1 when it breaks an invariant (REPRODUCED), 0 when it does not.")
    static final class Replay implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        RelayOptions relay;
        @Option(names = "--db", paramLabel = "DB", defaultValue = "h2", description = "h2, postgres or a jdbc:postgresql:// URL")
        String db;
        @Option(names = "--strategy", paramLabel = "random|pct|schedule", required = true, description = "how the schedule was drawn")
        String strategy;
        @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "the seed it was drawn from")
        long seed;
        @Option(names = "--schedule", paramLabel = "STEPS", description = "with --strategy schedule: the steps, as a trace lists them")
        String schedule;

        @Override
        public Integer call() throws SQLException {
            Settings settings = relay.settings();
            RelayFactory factory = relay.factory().get();
            if (strategy.equals("schedule") && (schedule == null || schedule.isBlank())) {
                throw new UsageException("--strategy schedule needs --schedule");
            }
            RunResult r;
            try {
                r = new RelayRun(factory, target(db), settings, CodeCheck.strategy(strategy, seed, settings, schedule), seed).run();
            } catch (IllegalArgumentException | RelayRun.Refused | OutboxReader.BadQuery e) {
                throw new UsageException(e.getMessage());
            }
            PrintWriter o = spec.commandLine().getOut();
            o.print(CodeReport.trace(r, 0));
            o.println("schedule: " + r.schedule());
            if (r.unfinished() != null) {
                o.println("INCONCLUSIVE: " + r.unfinished());
                return ExitCodes.INCOMPLETE;
            }
            r.notPromised().forEach(f -> o.println("NOT PROMISED " + f + " (the relay declares it does not promise this)"));
            if (r.failed()) {
                r.findings().forEach(f -> o.println("REPRODUCED " + f));
                return ExitCodes.VIOLATION;
            }
            o.println("NOT REPRODUCED: the run broke no invariant");
            return ExitCodes.CLEAN;
        }
    }
}
