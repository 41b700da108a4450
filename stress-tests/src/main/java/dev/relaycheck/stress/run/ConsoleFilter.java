package dev.relaycheck.stress.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * jcstress talks a lot (VM probing, progress, full result tables). This stream keeps all of it in a log file
 * and forwards to the console, unless verbose, only fatal messages and the line each finished test prints,
 * once per distinct line and only until jcstress starts repeating them in its final tables.
 */
final class ConsoleFilter extends OutputStream {
    private static final Pattern WORTH_SHOWING = Pattern.compile(
            "^\\.*\\s*\\[(OK|FAILED|ERROR|TIMEOUT|VM ERROR|SKIPPED)\\]\\s+\\S+.*|^FATAL.*|^ERROR.*");

    private final OutputStream log;
    private final PrintStream console;
    private final boolean verbose;
    private final StringBuilder line = new StringBuilder();
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final Set<String> shown = new HashSet<>();
    private boolean finalTables;

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
        if (verbose) {
            if (line.length() > 0) {
                console.println(line);
            }
            return;
        }
        finalTables |= line.toString().startsWith("RUN RESULTS");
        String shortLine = line.toString().replaceFirst("^\\.*\\s*", "");
        if (!finalTables && WORTH_SHOWING.matcher(line).matches() && shown.add(shortLine)) {
            console.println("  " + shortLine);
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
