package dev.relaycheck.checker.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An OutOfMemoryError anywhere, in the main thread or a worker, becomes one line on stderr and exit 3. The
 * line is built before the heap runs out, and a worker prints it with no allocation, so printing it cannot
 * fail the same way; it is printed once however many threads run out together.
 */
final class OutOfMemory {
    private static final String LINE = "relaycheck: out of memory (heap limit " + Runtime.getRuntime().maxMemory() / (1 << 20)
            + " MiB): lower --max-states or --threads, or raise the heap (RELAYCHECK_JAVA_OPTS=-Xmx...)";
    private static final byte[] LINE_BYTES = (LINE + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
    private static final AtomicBoolean REPORTED = new AtomicBoolean();
    private static final FileOutputStream STDERR = new FileOutputStream(FileDescriptor.err);

    private OutOfMemory() {
    }

    /** For the real process only: a worker's uncaught error ends the process with one line instead of a stack trace. */
    static void install() {
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (causedBy(e)) {
                if (REPORTED.compareAndSet(false, true)) {
                    try {
                        STDERR.write(LINE_BYTES);
                    } catch (IOException ignored) {
                        // nowhere left to say it
                    }
                }
            } else {
                System.err.println("relaycheck: internal error in thread " + thread.getName() + ": " + e);
            }
            try {
                System.exit(RelaycheckCli.INTERNAL); // a dead worker would leave the search waiting for it
            } catch (Throwable stillOutOfMemory) {
                Runtime.getRuntime().halt(RelaycheckCli.INTERNAL);
            }
        });
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
        if (REPORTED.compareAndSet(false, true)) {
            err.println(LINE);
            err.flush();
        }
    }
}
