package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.report.PhaseProgress;

import java.io.PrintWriter;

/**
 * The progress of {@code check} on stderr: "[jcstress] 3 of 9 tests, 1m12s elapsed, about 2m30s left
 * (Lease_03_AckRacesExpiry)". On a terminal one line that rewrites itself; otherwise (a log, a CI job) a
 * line when a phase starts or ends and at most every {@value #PERIOD_SECONDS} seconds between. Wall time
 * appears here and nowhere in the results.
 */
final class PhaseProgressPrinter implements PhaseProgress {
    static final int PERIOD_SECONDS = 15;
    private static final long PERIOD_NANOS = PERIOD_SECONDS * 1_000_000_000L;

    private final PrintWriter err;
    private final boolean terminal;
    private String phase = "";
    private long phaseStart;
    private long lastPrinted;
    private int width; // of the line now on the terminal, to blank out a longer one

    PhaseProgressPrinter(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** Rewrites one line when stderr looks like a terminal (the JVM sees a console), else prints lines. */
    static PhaseProgressPrinter forStderr(PrintWriter err) {
        return new PhaseProgressPrinter(err, System.console() != null);
    }

    @Override
    public synchronized void update(String phase, int done, int total, String unit, String current) {
        long now = System.nanoTime();
        boolean started = !phase.equals(this.phase);
        if (started) {
            finishLine();
            this.phase = phase;
            phaseStart = now;
        }
        boolean ended = total > 0 && done == total;
        if (!terminal && !started && !ended && now - lastPrinted < PERIOD_NANOS) {
            return;
        }
        lastPrinted = now;
        String line = line(phase, done, total, unit, current, now - phaseStart);
        if (terminal) {
            err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
            width = line.length();
        } else {
            err.println(line);
        }
        err.flush();
    }

    /** Ends the rewritten line, so what follows starts on its own. */
    synchronized void finishLine() {
        if (terminal && width > 0) {
            err.println();
            err.flush();
            width = 0;
        }
    }

    static String line(String phase, int done, int total, String unit, String current, long elapsedNanos) {
        StringBuilder b = new StringBuilder("[").append(phase).append("] ").append(done);
        b.append(total > 0 ? " of " + total : "").append(' ').append(unit).append(", ")
                .append(duration(elapsedNanos)).append(" elapsed");
        if (done > 0 && total > done) {
            b.append(", about ").append(duration(elapsedNanos / done * (total - done))).append(" left");
        }
        if (!current.isEmpty()) {
            b.append(" (").append(current).append(')');
        }
        return b.toString();
    }

    private static String duration(long nanos) {
        long s = nanos / 1_000_000_000L;
        return s >= 60 ? s / 60 + "m" + String.format("%02d", s % 60) + "s" : s + "s";
    }
}
