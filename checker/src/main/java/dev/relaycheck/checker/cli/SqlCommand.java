package dev.relaycheck.checker.cli;

import dev.relaycheck.jdbc.SqlChecksCli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The SQL checks on demand, on a relay the user names ({@code --adapter CLASS --classpath JAR} or {@code --sql
 * FILE}; default the reference relay file) and a database ({@code --db h2|postgres|jdbc:postgresql://...}):
 * conformance with a seed count, races, crash-kill rounds, replay of one schedule, the template relay file. The
 * options are declared here (so --help and the usage errors are picocli's, like every other command's) and
 * handed to the jdbc module's own command line, which only sees the options the user gave.
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
    @Option(names = "--sql", paramLabel = "FILE", description = "the relay under test: a file of named SQL statements")
    String sql;
    @Option(names = "--adapter", paramLabel = "CLASS",
            description = "the relay under test: a dev.relaycheck.jdbc.adapter.RelayAdapter on --classpath")
    String adapter;
    @Option(names = "--classpath", paramLabel = "JAR[:DIR...]", description = "where to load --adapter from")
    String classpath;
    @Option(names = "--db", paramLabel = "DB",
            description = "h2 (embedded, default), postgres (a server relaycheck starts and stops) or a jdbc:postgresql:// URL")
    String db;
    @Option(names = "--controls", paramLabel = "yes|no",
            description = "also run the shipped broken SQL variants, which must be caught (default yes)")
    String controls;
    @Option(names = "--claim-form", paramLabel = "FORM", description = "with --target: the shipped relay's claim form (conditional-update)")
    String claimForm;
    @Option(names = "--seeds", paramLabel = "N", description = "conformance: seeded schedules per scenario (default 125)")
    Integer seeds;
    @Option(names = "--seed", paramLabel = "N", description = "base seed; schedule i uses SplitMix64.derive(seed, i) (default 1)")
    Long seed;
    @Option(names = "--rounds", paramLabel = "N", description = "race: rounds per configuration; crash: kills per cut point "
            + "(default 5; 'sql race' alone: 3)")
    Integer rounds;
    @Option(names = "--out", paramLabel = "DIR", description = "where the reports go (default results/sql)")
    String out;
    @Option(names = "--shard", paramLabel = "I/N", description = "conformance: run shard I of N (counted from 1) of each run's "
            + "schedules (the i-th when i mod N = I-1) and write DIR/shard.tsv for 'relaycheck merge', which gives the verdict "
            + "(a shard exits 0)")
    String shard;
    @Option(names = "--target", paramLabel = "ID", description = "a shipped SQL relay instead of --sql/--adapter: a catalogue id or correct (replay lines name it)")
    String target;
    @Option(names = "--scenario", paramLabel = "NAME", description = "replay: the reference scenario")
    String scenario;
    @Option(names = "--walk-seed", paramLabel = "N", description = "replay: the walk's seed, as a conformance failure reports it")
    Long walkSeed;
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
        List<String> args = new ArrayList<>(List.of(check));
        // every option the user gave, as the jdbc command line names it (the same long names), in the order given
        for (OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
            if (option.usageHelp() || option.versionHelp()) {
                continue;
            }
            args.add(option.longestName());
            args.add(String.valueOf((Object) option.getValue()));
        }
        try (PrintStream o = lines(spec.commandLine().getOut()); PrintStream e = lines(spec.commandLine().getErr())) {
            return SqlChecksCli.run(args.toArray(String[]::new), o, e);
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
