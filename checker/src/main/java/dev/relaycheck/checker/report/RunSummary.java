package dev.relaycheck.checker.report;

import dev.relaycheck.checker.UsageException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's summary.json read back (schema relaycheck-summary/1 or /2): what {@code relaycheck diff} compares.
 *
 * @param source    where it was read from, as the user named it
 * @param codeRelay the relay checked by its own code ({@code check --relay}), empty for a run without one
 */
public record RunSummary(String source, String verdict, String logic, List<String> failures, List<ScenarioLine> scenarios,
                         List<RowLine> rows, List<CxLine> counterexamples, String codeRelay) {

    public RunSummary(String source, String verdict, String logic, List<String> failures, List<ScenarioLine> scenarios,
                      List<RowLine> rows, List<CxLine> counterexamples) {
        this(source, verdict, logic, failures, scenarios, rows, counterexamples, "");
    }

    /** What the run checked, as a diff names it: the relay by its own code, or the logic under test. */
    public String subject() {
        return codeRelay.isEmpty() ? "logic " + logic : "relay " + codeRelay + " by its own code";
    }

    /** One scenario's exhaustive search of the logic under test. {@code required} is empty in schema /1 files. */
    public record ScenarioLine(String name, String verdict, long states, long transitions, long depth,
                               Map<String, Long> witnesses, List<String> required) {
        public boolean ok() {
            return verdict.equals("OK");
        }
    }

    /** One checker verdict row. */
    public record RowLine(String checker, String check, String target, String expect, String verdict, String detail) {
        public String key() {
            return checker + " " + check + " " + target;
        }

        public boolean good() {
            return expect.equals("PASS") ? verdict.equals("PASS") : verdict.equals("CAUGHT");
        }
    }

    /** One counterexample with its replay line. */
    public record CxLine(String logic, String scenario, String invariant, long steps, String replay) {
    }

    /** Reads DIR/summary.json, or the file itself; a missing or malformed file is a usage error. */
    public static RunSummary read(Path fileOrDir, String source) {
        Path file = Files.isDirectory(fileOrDir) ? fileOrDir.resolve("summary.json") : fileOrDir;
        if (!Files.isRegularFile(file)) {
            throw new UsageException(Files.isDirectory(fileOrDir)
                    ? "no summary.json in " + source + " (write one with ./relaycheck check --results " + source + ")"
                    : "no such file or directory: " + source);
        }
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), source);
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The summary of a report this JVM just made, through the same JSON a file would hold. */
    public static RunSummary of(Report r, int exit, String source) {
        return parse(SummaryJson.render(r, exit), source);
    }

    static RunSummary parse(String text, String source) {
        Object root = Json.parse(text, source);
        if (!(root instanceof Map<?, ?> m) || !(m.get("schema") instanceof String schema)
                || !schema.startsWith("relaycheck-summary/")) {
            throw new UsageException(source + " is not a relaycheck summary.json (no \"schema\": \"relaycheck-summary/N\")");
        }
        if (!SummaryJson.READABLE.contains(schema)) {
            throw new UsageException(source + " has schema " + schema + "; this relaycheck reads " + SummaryJson.READABLE);
        }
        try {
            List<ScenarioLine> scenarios = new ArrayList<>();
            for (Object o : list(m, "scenarios")) {
                Map<?, ?> s = (Map<?, ?>) o;
                Map<String, Long> w = new LinkedHashMap<>();
                ((Map<?, ?>) s.get("witnesses")).forEach((k, v) -> w.put((String) k, (Long) v));
                List<String> required = s.containsKey("required") ? strings(list(s, "required")) : List.of();
                scenarios.add(new ScenarioLine(str(s, "name"), str(s, "verdict"), num(s, "states"), num(s, "transitions"),
                        num(s, "depth"), w, required));
            }
            List<RowLine> rows = new ArrayList<>();
            for (Object o : list(m, "checkers")) {
                Map<?, ?> c = (Map<?, ?>) o;
                for (Object x : list(c, "rows")) {
                    Map<?, ?> r = (Map<?, ?>) x;
                    rows.add(new RowLine(str(c, "name"), str(r, "check"), str(r, "target"), str(r, "expect"),
                            str(r, "verdict"), str(r, "detail")));
                }
            }
            List<CxLine> cx = new ArrayList<>();
            for (Object o : list(m, "counterexamples")) {
                Map<?, ?> c = (Map<?, ?>) o;
                cx.add(new CxLine(str(c, "logic"), str(c, "scenario"), str(c, "invariant"), num(c, "steps"), str(c, "replay")));
            }
            return new RunSummary(source, str(m, "verdict"), str(m, "logic"), strings(list(m, "failures")), scenarios, rows, cx,
                    m.get("codeRelay") instanceof String relay ? relay : "");
        } catch (ClassCastException | NullPointerException e) {
            throw new UsageException(source + " is a relaycheck summary with a missing or mistyped field");
        }
    }

    private static List<?> list(Map<?, ?> m, String k) {
        return (List<?>) m.get(k);
    }

    private static List<String> strings(List<?> l) {
        return l.stream().map(String.class::cast).toList();
    }

    private static String str(Map<?, ?> m, String k) {
        return (String) java.util.Objects.requireNonNull(m.get(k));
    }

    private static long num(Map<?, ?> m, String k) {
        return (Long) java.util.Objects.requireNonNull(m.get(k));
    }
}
