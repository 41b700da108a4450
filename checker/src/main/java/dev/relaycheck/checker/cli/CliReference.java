package dev.relaycheck.checker.cli;

import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

import java.util.Map;

/**
 * The CLI reference page, docs/cli.md, written from picocli's own help of every command (the exit codes once, at
 * the top), so the page says exactly what {@code relaycheck help COMMAND} says. A test holds the page to it;
 * {@code java -cp checker/target/relaycheck.jar dev.relaycheck.checker.cli.CliReference > docs/cli.md} rewrites it.
 */
public final class CliReference {
    private static final String EXIT_CODES = "\nExit codes:";

    private CliReference() {
    }

    public static void main(String[] args) {
        System.out.print(page());
    }

    /** The whole page. */
    public static String page() {
        CommandLine cli = new CommandLine(new RelaycheckCli());
        cli.setUsageHelpWidth(80);
        StringBuilder b = new StringBuilder("""
                # CLI reference

                Generated from the CLI's own help by `dev.relaycheck.checker.cli.CliReference` (a test fails when this page
                and `./relaycheck help COMMAND` disagree; rewrite it with
                `java -cp checker/target/relaycheck.jar dev.relaycheck.checker.cli.CliReference > docs/cli.md`).
                Every command ends its help with the exit codes, shown once here.

                """);
        b.append("## relaycheck\n\n").append(block(cli.getUsageMessage(Ansi.OFF)));
        appendCommands(b, cli, "relaycheck");
        return b.toString().stripTrailing() + "\n";
    }

    private static void appendCommands(StringBuilder b, CommandLine parent, String prefix) {
        for (Map.Entry<String, CommandLine> e : parent.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            String name = prefix + " " + e.getKey();
            String usage = e.getValue().getUsageMessage(Ansi.OFF);
            int exitCodes = usage.indexOf(EXIT_CODES);
            b.append("## ").append(name).append("\n\n").append(block(exitCodes < 0 ? usage : usage.substring(0, exitCodes)));
            appendCommands(b, e.getValue(), name);
        }
    }

    private static String block(String text) {
        return "```text\n" + text.stripTrailing() + "\n```\n\n";
    }
}
