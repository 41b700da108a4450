package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.search.Progress;

import java.io.PrintWriter;

/** Prints a progress line to stderr at most every two seconds, once a search has run that long. */
final class ProgressPrinter implements Progress {
    private final PrintWriter err;
    private long start = System.nanoTime();
    private long last = start;
    private String current = "";

    ProgressPrinter(PrintWriter err) {
        this.err = err;
    }

    @Override
    public synchronized void update(String what, long states, long transitions, int depth) {
        long now = System.nanoTime();
        if (!what.equals(current)) {
            current = what; // a new search: rates are per search
            start = now;
            last = now;
        }
        if (now - last < 2_000_000_000L) {
            return;
        }
        last = now;
        double secs = (now - start) / 1e9;
        err.printf("progress: %s: %,d states, %,d transitions, depth %d, %.0f s (%,.0f states/s)%n",
                what, states, transitions, depth, secs, states / secs);
        err.flush();
    }
}
