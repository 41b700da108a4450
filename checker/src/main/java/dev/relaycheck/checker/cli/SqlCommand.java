package dev.relaycheck.checker.cli;

import dev.relaycheck.jdbc.SqlChecksCli;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;
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
 * The SQL checks on demand, on a relay the user names ({@code --adapter CLASS --classpath JAR} or {@code --sql
 * FILE}; default the reference relay file) and a database ({@code --db h2|postgres|jdbc:postgresql://...}):
 * conformance with a seed count, races, crash-kill rounds, replay of one schedule, the template relay file.
 */
@Command(name = "sql", description = "Run the SQL checks on your relay: sql [all|conformance|race|crash] [--adapter CLASS "
        + "--classpath JAR | --sql FILE] [--db h2|postgres|jdbc:postgresql://...] [--seeds N] [--seed S] [--rounds N] [--controls yes|no] [--out DIR]; "
        + "sql replay ... --scenario NAME --walk-seed N; sql template (prints the reference relay file to start from).")
final class SqlCommand implements Callable<Integer> {
    @Unmatched
    List<String> args = new ArrayList<>();
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (PrintStream out = lines(spec.commandLine().getOut()); PrintStream err = lines(spec.commandLine().getErr())) {
            return SqlChecksCli.run(args.toArray(String[]::new), out, err);
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
