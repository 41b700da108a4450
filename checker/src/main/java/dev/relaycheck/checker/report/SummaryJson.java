package dev.relaycheck.checker.report;

import dev.relaycheck.checker.replay.ReplayLine;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.List;

/**
 * results/summary.json, schema {@code relaycheck-summary/2}: for tools and for comparing two runs
 * ({@code relaycheck diff}). Keys are written in a fixed order.
 *
 * <p>Schema /2 is /1 with additions only, so a reader of /1 that ignores unknown keys reads /2: {@code outcome}
 * (CLEAN, VIOLATION, LOGIC_ERROR, NON_DETERMINISM, INCOMPLETE or VACUOUS) and {@code exit} (the command's exit
 * code) at the top and {@code outcome} per scenario; each scenario lists its {@code required} witnesses, each
 * checker row says whether it is {@code sampled}, and two objects split the run's facts: {@code deterministic}
 * (the same bytes for the same inputs: scenarios without timings, the deterministic checkers' rows, the
 * counterexamples) and {@code sampled} (what real-thread timing decides: wall-clock seconds, the rows of
 * jcstress, Lincheck stress and the SQL races and crash-kills, and the jcstress outcome counts). The /1 fields
 * stay as they were and mix both kinds.
 */
public final class SummaryJson {
    public static final String SCHEMA = "relaycheck-summary/2";
    /** The schemas {@link RunSummary} reads. */
    public static final List<String> READABLE = List.of("relaycheck-summary/1", SCHEMA);

    private SummaryJson() {
    }

    /** @param exit the exit code the run's verdict gives (the CLI's mapping, passed in so the two never differ) */
    public static String render(Report r, int exit) {
        StringBuilder b = new StringBuilder("{\n");
        field(b, 1, "schema", str(SCHEMA), true);
        field(b, 1, "verdict", str(r.passed() ? "PASS" : "FAIL"), true);
        field(b, 1, "outcome", str(r.verdict().name()), true);
        field(b, 1, "exit", Integer.toString(exit), true);
        field(b, 1, "logic", str(r.subject().id()), true);
        // only for a relay checked by its own code: a reference run's summary keeps its bytes
        r.codeRelay().ifPresent(c -> field(b, 1, "codeRelay", str(c), true));
        // only for a user's SQL relay: a reference run's summary keeps its bytes
        r.sqlRelay().ifPresent(s -> field(b, 1, "sqlRelay", object(1, List.of(kv("id", str(s.id())),
                kv("invariantsChecked", array(s.checked().stream().map(i -> str(i.name())).toList(), 3)),
                kv("notPromised", array(s.notPromised().stream().map(i -> str(i.name())).toList(), 3)))), true));
        field(b, 1, "failures", array(r.failures().stream().map(SummaryJson::str).toList(), 2), true);
        field(b, 1, "scenarios", array(r.model().subject().stream().map(s -> scenario(s, true, 2)).toList(), 2), true);
        List<String> checkers = new ArrayList<>();
        for (CheckerRows c : r.checkers()) {
            List<String> rows = c.rows().stream().map(x -> row(c, x, 4, true)).toList();
            checkers.add(object(2, List.of(kv("name", str(c.checker())), kv("status", str(c.status())),
                    kv("note", str(c.note())), kv("rows", array(rows, 3)))));
        }
        field(b, 1, "checkers", array(checkers, 2), true);
        List<String> cx = r.counterexamples().stream().map(c -> counterexample(c, 2)).toList();
        field(b, 1, "counterexamples", array(cx, 2), true);
        field(b, 1, "deterministic", deterministic(r), true);
        field(b, 1, "sampled", sampled(r), false);
        b.append("}\n");
        return b.toString();
    }

    /** The facts that are the same bytes for the same inputs (a test holds two runs to that). */
    static String deterministic(Report r) {
        List<String> rows = new ArrayList<>();
        for (CheckerRows c : r.checkers()) {
            c.rows().stream().filter(x -> !Sampling.sampled(c, x)).forEach(x -> rows.add(row(c, x, 3, false)));
        }
        return object(1, List.of(
                kv("scenarios", array(r.model().subject().stream().map(s -> scenario(s, false, 3)).toList(), 3)),
                kv("rows", array(rows, 3)),
                kv("counterexamples", array(r.counterexamples().stream().map(c -> counterexample(c, 3)).toList(), 3))));
    }

    private static String sampled(Report r) {
        List<String> timings = r.model().subject().stream().map(s -> object(3, List.of(kv("scenario", str(s.scenario().name())),
                kv("seconds", String.format("%.3f", s.nanos() / 1e9))))).toList();
        List<String> rows = new ArrayList<>();
        for (CheckerRows c : r.checkers()) {
            c.rows().stream().filter(x -> Sampling.sampled(c, x)).forEach(x -> rows.add(row(c, x, 3, false)));
        }
        List<String> outcomes = new ArrayList<>();
        for (Histogram h : r.histograms()) {
            for (Histogram.Bar bar : h.bars()) {
                outcomes.add(object(3, List.of(kv("harness", str(h.harness())), kv("outcome", str(bar.outcome())),
                        kv("grade", str(bar.grade())), kv("count", Long.toString(bar.count())))));
            }
        }
        return object(1, List.of(kv("what", str(Sampling.WHAT)), kv("timings", array(timings, 3)),
                kv("rows", array(rows, 3)), kv("jcstress_outcomes", array(outcomes, 3))));
    }

    private static String scenario(SearchResult s, boolean seconds, int indent) {
        StringBuilder w = new StringBuilder("{");
        List<Witness> listed = Witness.listed(x -> s.witnesses().getOrDefault(x, 0L) > 0
                || s.scenario().requiredWitnesses().contains(x));
        for (Witness x : listed) {
            w.append(x == listed.get(0) ? "" : ", ").append(str(x.name())).append(": ").append(s.witnesses().getOrDefault(x, 0L));
        }
        w.append('}');
        List<String> kvs = new ArrayList<>(List.of(
                kv("name", str(s.scenario().name())), kv("verdict", str(s.verdictLine())),
                kv("outcome", str(Verdict.of(s).name())),
                kv("states", Long.toString(s.states())), kv("transitions", Long.toString(s.transitions())),
                kv("depth", Integer.toString(s.depth())), kv("witnesses", w.toString()),
                kv("required", "[" + String.join(", ", s.scenario().requiredWitnesses().stream().sorted()
                        .map(x -> str(x.name())).toList()) + "]")));
        if (s.violated()) { // every invariant the search found broken, in the order of its counterexamples
            kvs.add(kv("violated", "[" + String.join(", ", s.violatedInvariants().stream().map(i -> str(i.name())).toList()) + "]"));
        }
        if (!s.judgedAll()) {
            kvs.add(kv("judged", "[" + String.join(", ", s.judged().stream().map(i -> str(i.name())).toList()) + "]"));
        }
        if (!s.notApplicable().isEmpty()) {
            kvs.add(kv("not_applicable", "{" + String.join(", ", s.notApplicable().entrySet().stream()
                    .map(e -> str(e.getKey().name()) + ": " + str(e.getValue())).toList()) + "}"));
        }
        if (seconds) {
            kvs.add(kv("seconds", String.format("%.3f", s.nanos() / 1e9)));
        }
        return object(indent, kvs);
    }

    private static String row(CheckerRows c, CheckerRows.Row x, int indent, boolean inChecker) {
        List<String> kvs = new ArrayList<>();
        if (!inChecker) {
            kvs.add(kv("checker", str(c.checker())));
        }
        kvs.addAll(List.of(kv("check", str(x.check())), kv("target", str(x.target())), kv("expect", str(x.expect())),
                kv("verdict", str(x.verdict())), kv("detail", str(x.detail()))));
        if (inChecker) {
            kvs.add(kv("sampled", Boolean.toString(Sampling.sampled(c, x))));
        }
        return object(indent, kvs);
    }

    private static String counterexample(Counterexample c, int indent) {
        return object(indent, List.of(kv("logic", str(c.logic().id())), kv("scenario", str(c.scenario().name())),
                kv("invariant", str(c.invariant().name())), kv("steps", Integer.toString(c.path().size())),
                kv("replay", str(ReplayLine.of(c)))));
    }

    private static String kv(String k, String v) {
        return str(k) + ": " + v;
    }

    private static void field(StringBuilder b, int indent, String k, String v, boolean comma) {
        b.append("  ".repeat(indent)).append(kv(k, v)).append(comma ? ",\n" : "\n");
    }

    private static String object(int indent, List<String> kvs) {
        String pad = "  ".repeat(indent);
        return "{\n" + pad + "  " + String.join(",\n" + pad + "  ", kvs) + "\n" + pad + "}";
    }

    private static String array(List<String> items, int indent) {
        if (items.isEmpty()) {
            return "[]";
        }
        String pad = "  ".repeat(indent);
        return "[\n" + pad + String.join(",\n" + pad, items) + "\n" + "  ".repeat(indent - 1) + "]";
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
