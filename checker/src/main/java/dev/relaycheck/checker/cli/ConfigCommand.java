package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;
import dev.relaycheck.checker.config.Backoff;
import dev.relaycheck.checker.config.Durations;
import dev.relaycheck.checker.config.RedeliveryWindow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code relaycheck config}: does a relay's configuration let a redelivery outlive the consumer's dedup marker
 *? Answers with the worst-case timeline the settings allow as the witness: exit 0 when
 * the marker outlives every redelivery, 1 when one can come after the purge.
 */
@Command(name = "config", description = {
        "Check a relay's settings: can a redelivery outlive the consumer's dedup marker?",
        "Prints the worst-case timeline the settings allow. Exit 0: the marker outlives every redelivery; "
                + "1: a redelivery can come after the marker is purged (the effect would apply twice)."})
final class ConfigCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--lease", required = true, paramLabel = "DURATION", description = "lease a claim takes, e.g. 30s")
    String lease;

    @Option(names = "--max-attempts", required = true, paramLabel = "N",
            description = "deliveries of one row at most, the first included")
    int maxAttempts;

    @Option(names = "--backoff", defaultValue = "0", paramLabel = "BACKOFF",
            description = "wait before each retry after the lease expired: 10s, 10s,30s,2m (the last repeats) or 10s*2 "
                    + "(doubling); default ${DEFAULT-VALUE}")
    String backoff;

    @Option(names = "--retention", required = true, paramLabel = "DURATION",
            description = "how long the consumer keeps a dedup marker, e.g. 1h")
    String retention;

    @Option(names = "--max-stall", required = true, paramLabel = "DURATION",
            description = "the longest a poller may pause (GC, network) between its claim and its consumer commit")
    String maxStall;

    @Override
    public Integer call() {
        RedeliveryWindow w;
        RedeliveryWindow.Answer a;
        try {
            w = new RedeliveryWindow(Durations.parse(lease, "--lease"), maxAttempts, Backoff.parse(backoff),
                    Durations.parse(retention, "--retention"), Durations.parse(maxStall, "--max-stall"));
            a = w.evaluate();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("relaycheck config: lease " + Durations.format(w.lease()) + ", max attempts " + w.maxAttempts()
                + ", backoff " + w.backoff().text() + ", retention " + Durations.format(w.retention()) + ", max stall "
                + Durations.format(w.maxStall()));
        out.println("worst case: the first delivery writes the marker at once and every acknowledgement is lost, so the "
                + "row is redelivered up to the last attempt, each claimed as soon as lease and backoff allow");
        out.println("timeline:");
        for (RedeliveryWindow.Moment m : a.timeline()) {
            out.printf("  %-10s %s%n", Durations.format(m.at()), m.what());
        }
        if (a.safe()) {
            out.println("SAFE: the marker (kept " + Durations.format(w.retention()) + ") outlives the last redelivery ("
                    + Durations.format(a.redeliveryAt()) + ") by " + Durations.format(w.retention() - a.redeliveryAt()));
            return ExitCodes.CLEAN;
        }
        out.println("UNSAFE: EFFECT_AT_MOST_ONCE: a redelivery can commit at " + Durations.format(a.redeliveryAt())
                + ", after the marker is purged at " + Durations.format(w.retention())
                + "; keep markers longer than the whole redelivery window, or bound attempts, backoff or stalls");
        return ExitCodes.VIOLATION;
    }
}
