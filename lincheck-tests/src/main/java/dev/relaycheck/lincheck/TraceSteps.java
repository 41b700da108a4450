package dev.relaycheck.lincheck;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state after each step of a failing interleaving, read back from Lincheck's detailed trace: each row of
 * that table is one event in execution order, one column per thread; a top-level entry is an operation with
 * its result, and the two {@code StateView.describe(..)} entries nested under it are the store's state as the
 * operation started and as it returned. Lines come out in execution order, so when another thread ran in
 * between, its lines sit between the two.
 */
final class TraceSteps {
    private static final String SECTION = "Detailed trace:";
    private static final Pattern STATE = Pattern.compile(Pattern.quote(StateView.class.getSimpleName()) + "\\.describe\\([^)]*\\): \"(.*)\"");

    private TraceSteps() {
    }

    /** Two lines per operation (thread, operation with result, begin/end, state); empty without a detailed trace. */
    static List<String> extract(String report) {
        List<String> lines = report.lines().toList();
        int start = lines.indexOf(SECTION);
        if (start < 0) {
            return List.of();
        }
        List<String> steps = new ArrayList<>();
        int[] bounds = null;
        String[] operation = null;
        int[] described = null;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (!line.startsWith("|")) {
                if (bounds != null) {
                    break; // past the table
                }
                continue;
            }
            if (line.startsWith("| -")) {
                continue;
            }
            if (bounds == null) {
                bounds = pipes(line); // the "Thread 1 | Thread 2" header fixes the column edges
                operation = new String[bounds.length - 1];
                described = new int[bounds.length - 1];
                continue;
            }
            for (int col = 0; col < bounds.length - 1; col++) {
                String cell = cell(line, bounds, col);
                if (cell.isBlank()) {
                    continue;
                }
                if (cell.charAt(0) == ' ' && cell.length() > 1 && cell.charAt(1) != ' ') {
                    operation[col] = cell.strip(); // a top-level entry: the operation and its result
                    described[col] = 0;
                }
                Matcher m = STATE.matcher(cell);
                if (m.find() && operation[col] != null) {
                    String when = described[col]++ == 0 ? "begin" : "end";
                    steps.add(String.format("T%d  %-32s %-5s  %s", col + 1, operation[col], when, m.group(1)));
                }
            }
        }
        return steps;
    }

    private static int[] pipes(String header) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < header.length(); i++) {
            if (header.charAt(i) == '|') {
                at.add(i);
            }
        }
        return at.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String cell(String line, int[] bounds, int col) {
        int from = bounds[col] + 1;
        int to = Math.min(bounds[col + 1], line.length());
        return from >= to ? "" : line.substring(from, to);
    }
}
