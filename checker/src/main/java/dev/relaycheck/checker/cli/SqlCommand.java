package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.jdbc.SqlOptions;
import dev.relaycheck.jdbc.SqlRun;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.model.shard.ShardFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The SQL checks on demand, on a relay the user names ({@code --adapter CLASS --classpath JAR} or {@code --sql
 * FILE}; default the reference relay file) and a database ({@code --db h2|postgres|jdbc:postgresql://...}):
 * conformance with a seed count, races, crash-kill rounds, replay of one schedule, the template relay file. Picocli
 * parses the command line once, into the jdbc module's {@link SqlOptions}; what does not go together is one line
 * and exit 2.
 */
@Command(name = "sql", description = "Run the SQL checks on your relay (default: the reference relay file) and write "
        + "DIR/summary.tsv with one report per check; e.g. 'relaycheck sql conformance --sql my-relay.sql --db postgres'. "
        + "'sql template' prints the reference relay file to start from; 'sql replay' re-runs one conformance walk or one crash-kill round "
        + "as a failure prints it. Exit 0 when the relay passed and every broken SQL variant was caught, 1 otherwise, 2 for "
        + "bad arguments.")
final class SqlCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "CHECK", defaultValue = "all",
            description = "all, conformance, race, crash, template (print the reference relay file), or replay (one "
                    + "conformance walk: needs --scenario and --walk-seed; or one crash-kill round: --cut, --nth, --batch; or one race: --race-seed, --shared-database); default ${DEFAULT-VALUE}")
    String check;
    @Mixin
    SqlRelayOptions relay = new SqlRelayOptions();
    @Option(names = "--classpath", paramLabel = "JAR[:DIR...]", description = "where to load --adapter from")
    String classpath;
    @Option(names = "--claim-form", paramLabel = "FORM", description = "with --target: the shipped relay's claim form (conditional-update)")
    String claimForm;
    @Option(names = "--seeds", paramLabel = "N", description = "conformance: seeded schedules per scenario (default 125)")
    Integer seeds;
    @Option(names = "--seed", paramLabel = "N", description = "base seed; schedule i uses SplitMix64.derive(seed, i) (default 1)")
    long seed = 1;
    @Option(names = "--rounds", paramLabel = "N", description = "race: rounds per configuration; crash: kills per cut point "
            + "(default 5; 'sql race' alone: 3)")
    Integer rounds;
    @Option(names = "--out", paramLabel = "DIR", description = "where the reports go (default results/sql)")
    Path out;
    @Mixin
    ShardOption shard = new ShardOption();
    @Option(names = "--target", paramLabel = "ID", description = "a shipped SQL relay instead of --sql/--adapter: a catalogue id or correct (replay lines name it)")
    String target;
    @Option(names = "--scenario", paramLabel = "NAME", description = "replay: the reference scenario")
    String scenario;
    @Option(names = "--walk-seed", paramLabel = "N", description = "replay: the walk's seed, as a conformance failure reports it")
    Long walkSeed;
    @Option(names = "--judge", paramLabel = "INVARIANT", split = ",",
            description = "replay --scenario: judge the walk by these invariants alone, as a property check does (its replay line names them); default every one")
    List<String> judge;
    @Option(names = "--cut", paramLabel = "CUT", description = "replay: one crash-kill round killed at this cut point, as a crash-kill failure reports it")
    String cut;
    @Option(names = "--nth", paramLabel = "N", description = "replay --cut: at the n-th commit of that kind (default 1)")
    Integer nth;
    @Option(names = "--batch", paramLabel = "N", description = "replay --cut: the claim batch size (default 1)")
    Integer batch;
    @Option(names = "--race-seed", paramLabel = "S", description = "replay: one race with this seed, as a race failure reports it")
    Long raceSeed;
    @Option(names = "--shared-database", paramLabel = "yes|no", description = "replay --race-seed: consumer tables in the outbox database")
    String sharedDatabase;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (PrintStream o = lines(spec.commandLine().getOut()); PrintStream e = lines(spec.commandLine().getErr())) {
            SqlOptions options;
            try {
                options = options();
            } catch (IllegalArgumentException ex) {
                e.println("relaycheck sql: " + ex.getMessage().lines().findFirst().orElse(""));
                return ExitCodes.USAGE;
            }
            return SqlRun.run(options, o, e);
        }
    }

    /** What the command line asks, checked: a combination that does not go together is an IllegalArgumentException. */
    SqlOptions options() {
        List<String> dbs = relay.dbs(List.of("h2"));
        if (dbs.size() != 1) {
            throw new IllegalArgumentException("sql runs on one --db at a time, got '" + relay.db + "'");
        }
        return new SqlOptions(check, RelaySpec.of(target, claimForm, relay.sqlFile, relay.adapter, classpath), dbs.get(0),
                relay.controls(), seeds, seed, rounds, out, shard.shard(), shapingArgs(),
                SqlOptions.Replay.of(check, scenario, walkSeed, cut, nth, batch, raceSeed, SqlRelayOptions.yesNo("--shared-database", sharedDatabase),
                        judge));
    }

    /** The arguments that shape a conformance shard's schedules, as the user gave them, less the check's name. */
    private List<String> shapingArgs() {
        List<String> args = new ArrayList<>(ShardOption.shapingArgs(spec));
        args.remove(check);
        return args;
    }

    /**
     * {@code relaycheck merge} of {@code sql conformance} shards: their arguments parsed again as this command's, the
     * run merged into {@code dir}; exits as the one run would.
     */
    static int merge(List<ShardFile> files, Path dir, PrintWriter out, PrintWriter err) {
        SqlCommand sql = new SqlCommand();
        CommandLine cli = new CommandLine(sql);
        List<String> args = new ArrayList<>(List.of("conformance"));
        args.addAll(files.get(0).args());
        SqlOptions options;
        try {
            cli.parseArgs(args.toArray(String[]::new));
            options = sql.options();
        } catch (CommandLine.ParameterException | IllegalArgumentException e) {
            throw new UsageException("merge: the shards' arguments do not parse here: " + e.getMessage());
        }
        try (PrintStream o = lines(out); PrintStream e = lines(err)) {
            return SqlRun.merge(options, files, dir, o, e);
        }
    }

    /** A stream that hands each finished UTF-8 line to the writer, so progress shows as it comes. */
    static PrintStream lines(PrintWriter w) {
        return new PrintStream(new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public void write(int b) {
                line.write(b);
                if (b == '\n') {
                    flush();
                }
            }

            @Override
            public void flush() {
                w.print(line.toString(StandardCharsets.UTF_8));
                w.flush();
                line.reset();
            }
        }, true, StandardCharsets.UTF_8);
    }
}
