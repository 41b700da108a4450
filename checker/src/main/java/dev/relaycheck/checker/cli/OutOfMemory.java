package dev.relaycheck.checker.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * An OutOfMemoryError anywhere, in the main thread or a worker, becomes one line on stderr and exit 3. The
 * line is built before the heap runs out, and a worker prints it with no allocation, so printing it cannot
 * fail the same way; it is printed once however many threads run out together.
 */
final class OutOfMemory {
    private static final String LINE = "relaycheck: out of memory (heap limit " + Runtime.getRuntime().maxMemory() / (1 << 20)
            + " MiB): lower --max-states or --threads, or raise the heap (RELAYCHECK_JAVA_OPTS=-Xmx...)";
    private static final byte[] LINE_BYTES = (LINE + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
    private static boolean reported;
    private static final FileOutputStream STDERR = new FileOutputStream(FileDescriptor.err);

    private OutOfMemory() {
    }

    /**
     * Made before the heap can run out: a handler that made it while out of memory would itself fail and halt
     * the process without the line (runningOutOfMemoryInWorkersIsOneLine).
     */
    private static final Thread PROBE = new Thread(() -> { });

    /** True once the JVM has begun to shut down (no hook can be added any more). */
    private static boolean shuttingDown() {
        Thread probe = PROBE;
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    /** For the real process only: a worker's uncaught error ends the process with one line instead of a stack trace. */
    static void install() {
        causedBy(new Throwable()); // resolve what the handler calls now, while there is memory to do it
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            try {
                if (causedBy(e)) {
                    // the heap ran out: the first thread says so once; the others, out of memory with it (the
                    // process may already be shutting down on the first one's exit), say nothing more
                    if (claim()) {
                        STDERR.write(LINE_BYTES);
                        if (!shuttingDown()) {
                            ProcessGuard.exit(ExitCodes.INTERNAL);
                        }
                    }
                } else if (shuttingDown()) {
                    // a shutdown hook's thread (stopping a server, killing children): System.exit here would wait
                    // forever for the shutdown this thread is part of, so say it and let the shutdown finish
                    System.err.println("relaycheck: error while shutting down, in thread " + thread.getName() + ": " + e);
                } else {
                    System.err.println("relaycheck: internal error in thread " + thread.getName() + ": " + e);
                    ProcessGuard.exit(ExitCodes.INTERNAL); // a dead worker would leave the search waiting for it
                }
            } catch (Throwable stillOutOfMemory) {
                Runtime.getRuntime().halt(ExitCodes.INTERNAL); // never let an error leave the handler: the JVM would print it
            }
        });
    }

    /** True for the first caller only: the line is printed once. A plain lock: nothing to link or allocate. */
    private static synchronized boolean claim() {
        if (reported) {
            return false;
        }
        reported = true;
        return true;
    }

    static boolean causedBy(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }

    static void report(PrintWriter err) {
        if (claim()) {
            err.println(LINE);
            err.flush();
        }
    }
}
