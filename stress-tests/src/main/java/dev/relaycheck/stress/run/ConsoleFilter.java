package dev.relaycheck.stress.run;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * jcstress talks a lot (VM probing, progress, full result tables). This stream keeps all of it in a log file
 * and forwards to the console only the line each finished test prints and fatal messages, unless verbose.
 */
final class ConsoleFilter extends OutputStream {
    private static final Pattern WORTH_SHOWING = Pattern.compile(
            "^\\.*\\s*\\[(OK|FAILED|ERROR|TIMEOUT|VM ERROR|SKIPPED)\\]\\s+\\S+.*|^FATAL.*|^ERROR.*");

    private final OutputStream log;
    private final PrintStream console;
    private final boolean verbose;
    private final StringBuilder line = new StringBuilder();
    private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();

    ConsoleFilter(OutputStream log, PrintStream console, boolean verbose) {
        this.log = log;
        this.console = console;
        this.verbose = verbose;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        log.write(b);
        if (b == '\n' || b == '\r') {
            flushLine();
        } else {
            pending.write(b);
        }
    }

    private void flushLine() {
        line.setLength(0);
        line.append(pending.toString(StandardCharsets.UTF_8));
        pending.reset();
        if (verbose || WORTH_SHOWING.matcher(line).matches()) {
            console.println(verbose ? line : "  " + line.toString().replaceFirst("^\\.*\\s*", ""));
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        log.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (pending.size() > 0) {
            flushLine();
        }
        log.close();
    }
}
