package dev.relaycheck.checker.cli;

import dev.relaycheck.jdbc.SqlChecksCli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The SQL relay's checks on H2, on demand: conformance with a seed count, races, crash-kill rounds. The
 * options are declared here (so --help and the usage errors are picocli's, like every other command's) and
 * handed to the jdbc module's own command line, which only sees the options the user gave.
 */
@Command(name = "sql", description = "Run the SQL relay's checks on H2 and write DIR/summary.tsv with one report per "
        + "check; e.g. 'relaycheck sql conformance --seeds 1000'. Exit 0 when the correct relay passed and every "
        + "broken SQL variant was caught, 1 otherwise, 2 for bad arguments.")
final class SqlCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "CHECK", defaultValue = "all",
            description = "all, conformance, race, crash, or replay (one conformance walk: needs --target, --scenario "
                    + "and --walk-seed); default ${DEFAULT-VALUE}")
    String check;
    @Option(names = "--seeds", paramLabel = "N", description = "conformance: seeded schedules per scenario (default 125)")
    Integer seeds;
    @Option(names = "--seed", paramLabel = "N", description = "base seed; schedule i uses SplitMix64.derive(seed, i) (default 1)")
    Long seed;
    @Option(names = "--rounds", paramLabel = "N", description = "race: rounds per configuration; crash: kills per cut point "
            + "(default 5; 'sql race' alone: 3)")
    Integer rounds;
    @Option(names = "--out", paramLabel = "DIR", description = "where the reports go (default results/sql)")
    String out;
    @Option(names = "--target", paramLabel = "ID", description = "replay: the SQL variant (a catalogue id or correct)")
    String target;
    @Option(names = "--scenario", paramLabel = "NAME", description = "replay: the reference scenario")
    String scenario;
    @Option(names = "--walk-seed", paramLabel = "N", description = "replay: the walk's seed, as a conformance failure reports it")
    Long walkSeed;
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        List<String> args = new ArrayList<>(List.of(check));
        add(args, "--seeds", seeds);
        add(args, "--seed", seed);
        add(args, "--rounds", rounds);
        add(args, "--out", out);
        add(args, "--target", target);
        add(args, "--scenario", scenario);
        add(args, "--walk-seed", walkSeed);
        try (PrintStream o = lines(spec.commandLine().getOut()); PrintStream e = lines(spec.commandLine().getErr())) {
            return SqlChecksCli.run(args.toArray(String[]::new), o, e);
        }
    }

    private static void add(List<String> args, String option, Object value) {
        if (value != null) {
            args.add(option);
            args.add(value.toString());
        }
    }

    /** A stream that hands each finished UTF-8 line to the writer, so progress shows as it comes. */
    private static PrintStream lines(PrintWriter w) {
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
