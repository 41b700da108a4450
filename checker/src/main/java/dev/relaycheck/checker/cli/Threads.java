package dev.relaycheck.checker.cli;

import dev.relaycheck.checker.UsageException;

/**
 * --threads: 1 to {@value #PER_CORE} per core. Every thread of a search holds its own buffers, so thousands of
 * them only exhaust the heap (1000 threads on a small scenario grew to 6.4 GB); past a few per core they
 * cannot make a search faster either.
 */
final class Threads {
    static final int PER_CORE = 4;

    private Threads() {
    }

    static int max() {
        return PER_CORE * Runtime.getRuntime().availableProcessors();
    }

    /** The worker count: all cores when not given, else the given number if it is within bounds. */
    static int resolve(Integer requested) {
        if (requested == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        if (requested < 1 || requested > max()) {
            throw new UsageException("--threads must be between 1 and " + max() + " (" + PER_CORE + " per core on this machine's "
                    + Runtime.getRuntime().availableProcessors() + " cores), not " + requested);
        }
        return requested;
    }
}
