package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.packed.PackedSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.List;

/**
 * The relaycheck command line. Exit codes: 0 clean, 1 a violation was found (or a catalogue variant
 * escaped every check), 2 usage error (one line on stderr, never a stack trace), 3 internal error,
 * 4 incomplete (a bound stopped the search), 5 vacuous (a required witness never reached),
 * 6 logic error (the logic under test threw), 7 non-determinism (the logic under test is not a function).
 * {@link ExitCodes} maps a verdict to its code. Every command inherits --help, --version and the footer
 * that lists these codes.
 */
@Command(name = "relaycheck", mixinStandardHelpOptions = true, version = "relaycheck 0.1.0", scope = ScopeType.INHERIT,
        description = "Deterministic concurrency model checker for transactional-outbox relay logic.",
        footer = ExitCodes.FOOTER, sortOptions = true,
        subcommands = {CheckCommand.class, ExploreCommand.class, RandomCommand.class, ReplayCommand.class,
                VariantsCommand.class, ScenariosCommand.class, BenchCommand.class, SqlCommand.class, CodeCommand.class,
                StressCommand.class, LincheckCommand.class, DiffCommand.class, ConfigCommand.class, MergeCommand.class,
                CommandLine.HelpCommand.class})
public final class RelaycheckCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (try 'relaycheck help')");
    }

    public static void main(String[] args) {
        OutOfMemory.install();
        ChildProcesses.dieWithParent();
        ProcessGuard.install();
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int exit;
        try {
            exit = run(args, out, err);
        } finally {
            out.flush(); // autoflush covers println only: a command that ends with print() must still be seen
            err.flush();
        }
        ProcessGuard.exit(exit);
    }

    /** Runs the CLI with the given streams; returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new RelaycheckCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, a) -> {
            err.println("relaycheck: " + ex.getMessage() + suggestion(ex));
            return ExitCodes.USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof UsageException) {
                err.println("relaycheck: " + ex.getMessage());
                return ExitCodes.USAGE;
            }
            if (ex instanceof PackedSpace.Disagreement) { // a relaycheck bug, said in one line: no verdict
                err.println("relaycheck: " + ex.getMessage());
                return ExitCodes.INTERNAL;
            }
            if (OutOfMemory.causedBy(ex)) {
                OutOfMemory.report(err);
                return ExitCodes.INTERNAL;
            }
            err.println("relaycheck: internal error: " + ex);
            return ExitCodes.INTERNAL;
        });
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) {
            OutOfMemory.report(err);
            return ExitCodes.INTERNAL;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** "; did you mean 'explore'?" for a mistyped command or option, else nothing. */
    private static String suggestion(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u) {
            List<String> near = u.getSuggestions();
            if (!near.isEmpty()) {
                return "; did you mean '" + near.get(0) + "'?";
            }
        }
        return "";
    }
}
