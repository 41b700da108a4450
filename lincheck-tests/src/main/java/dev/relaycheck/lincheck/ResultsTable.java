package dev.relaycheck.lincheck;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The results table of a Lincheck failure, read back: the part run before the parallel one, the parallel part
 * thread by thread, and the part after, each operation with its arguments, its result and, in the parallel part,
 * Lincheck's happens-before clock ({@code [0,1]}: the operations of each thread that had returned when it started).
 *
 * @param parts the parts in order; each part is its threads, each thread its operations in program order
 */
record ResultsTable(List<Part> parts) {
    private static final Pattern ACTOR = Pattern.compile("^(\\w+)\\(([^)]*)\\): (.*?)(?: \\[(\\d+(?:,\\d+)*)])?$");

    enum Kind { INIT, PARALLEL, POST }

    record Part(Kind kind, List<List<Actor>> threads) {
    }

    /**
     * One operation as the table shows it.
     *
     * @param cell      the cell's text, e.g. {@code ack(1, E1): ACKED [0,1]}
     * @param operation {@code ack}
     * @param args      {@code [1, E1]}
     * @param result    {@code ACKED}
     * @param clock     per thread, how many of its operations had returned when this one started; empty when not shown
     * @param part      index of its part
     * @param thread    its thread within the part
     * @param index     its place in its thread
     */
    record Actor(String cell, String operation, List<String> args, String result, int[] clock, int part, int thread, int index) {
        /** The call without its result: {@code ack(1, E1)}. */
        String call() {
            return operation + "(" + String.join(", ", args) + ")";
        }

        /** Whether this operation returned before {@code other} started, as the table shows it. */
        boolean returnedBefore(Actor other) {
            if (part != other.part) {
                return part < other.part;
            }
            if (thread == other.thread) {
                return index < other.index;
            }
            return other.clock.length > thread && other.clock[thread] > index;
        }
    }

    /** The first table of {@code report}; no parts when it has none. */
    static ResultsTable read(String report) {
        List<List<String[]>> sections = sections(report);
        int parallel = -1;
        for (int i = 0; i < sections.size() && parallel < 0; i++) {
            if (nonEmptyColumns(sections.get(i)) > 1) {
                parallel = i;
            }
        }
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            List<String[]> rows = sections.get(i);
            Kind kind = i == parallel ? Kind.PARALLEL : parallel < 0 || i < parallel ? Kind.INIT : Kind.POST;
            int columns = kind == Kind.PARALLEL ? rows.get(0).length : 1;
            List<List<Actor>> threads = new ArrayList<>();
            for (int col = 0; col < columns; col++) {
                List<Actor> actors = new ArrayList<>();
                for (String cell : column(rows, col)) {
                    actors.add(actor(cell, parts.size(), col, actors.size()));
                }
                threads.add(actors);
            }
            parts.add(new Part(kind, threads));
        }
        return new ResultsTable(parts);
    }

    /** Every operation, part by part, thread by thread. */
    List<Actor> actors() {
        List<Actor> all = new ArrayList<>();
        parts.forEach(p -> p.threads().forEach(all::addAll));
        return all;
    }

    /** The table flattened to one line: {@code init a, b; parallel T1 c / T2 d; post e}. */
    String summary() {
        if (parts.isEmpty()) {
            return "see the report";
        }
        List<String> out = new ArrayList<>();
        for (Part p : parts) {
            if (p.kind() == Kind.PARALLEL) {
                List<String> threads = new ArrayList<>();
                for (int t = 0; t < p.threads().size(); t++) {
                    threads.add("T" + (t + 1) + " " + String.join(", ", p.threads().get(t).stream().map(Actor::cell).toList()));
                }
                out.add("parallel " + String.join(" / ", threads));
            } else {
                out.add((p.kind() == Kind.INIT ? "init " : "post ") + String.join(", ", p.threads().get(0).stream().map(Actor::cell).toList()));
            }
        }
        return String.join("; ", out);
    }

    private static Actor actor(String cell, int part, int thread, int index) {
        Matcher m = ACTOR.matcher(cell);
        if (!m.matches()) {
            return new Actor(cell, "", List.of(), "", new int[0], part, thread, index);
        }
        List<String> args = m.group(2).isBlank() ? List.of() : List.of(m.group(2).split(",\\s*"));
        int[] clock = m.group(4) == null ? new int[0] : java.util.Arrays.stream(m.group(4).split(",")).mapToInt(Integer::parseInt).toArray();
        return new Actor(cell, m.group(1), args, m.group(3), clock, part, thread, index);
    }

    private static List<List<String[]>> sections(String report) {
        List<List<String[]>> sections = new ArrayList<>();
        List<String[]> current = null;
        boolean header = true;
        for (String line : report.lines().toList()) {
            if (line.startsWith("| -")) {
                if (current != null && !current.isEmpty()) {
                    sections.add(current);
                }
                current = new ArrayList<>();
            } else if (line.startsWith("| ") && current != null) {
                if (header) {
                    header = false; // the "Thread 1 | Thread 2" row
                } else {
                    current.add(cells(line));
                }
            } else if (current != null) {
                break; // the end of the first table
            }
        }
        return sections;
    }

    private static String[] cells(String row) {
        String inner = row.substring(1, row.lastIndexOf('|'));
        String[] cells = inner.split("\\|", -1);
        for (int i = 0; i < cells.length; i++) {
            cells[i] = cells[i].strip();
        }
        return cells;
    }

    private static long nonEmptyColumns(List<String[]> rows) {
        int width = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        long n = 0;
        for (int col = 0; col < width; col++) {
            if (!column(rows, col).isEmpty()) {
                n++;
            }
        }
        return n;
    }

    private static List<String> column(List<String[]> rows, int col) {
        List<String> out = new ArrayList<>();
        for (String[] r : rows) {
            if (col < r.length && !r[col].isEmpty()) {
                out.add(r[col]);
            }
        }
        return out;
    }
}
