package dev.relaycheck.checker.report;

import dev.relaycheck.checker.Counterexample;
import dev.relaycheck.checker.ReplayLine;
import dev.relaycheck.checker.SearchResult;
import dev.relaycheck.checker.Verdict;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.List;

/**
 * results/summary.json, schema {@code relaycheck-summary/2}: for tools and for comparing two runs. Keys are
 * written in a fixed order; the only fields that change between identical runs are the {@code seconds}.
 * Version 2 adds {@code outcome} (CLEAN, VIOLATION, LOGIC_ERROR, NON_DETERMINISM, INCOMPLETE or VACUOUS) and
 * {@code exit} (the command's exit code) at the top and {@code outcome} per scenario; every field of version 1
 * is kept with its meaning, so a reader of version 1 that ignores unknown keys reads version 2.
 */
public final class SummaryJson {
    public static final String SCHEMA = "relaycheck-summary/2";

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
        field(b, 1, "failures", array(r.failures().stream().map(SummaryJson::str).toList(), 2), true);
        List<String> scenarios = new ArrayList<>();
        for (SearchResult s : r.model().subject()) {
            StringBuilder w = new StringBuilder("{");
            for (Witness x : Witness.values()) {
                w.append(x == Witness.values()[0] ? "" : ", ").append(str(x.name())).append(": ").append(s.witnesses().getOrDefault(x, 0L));
            }
            w.append('}');
            scenarios.add(object(2, List.of(
                    kv("name", str(s.scenario().name())), kv("verdict", str(s.verdictLine())),
                    kv("outcome", str(Verdict.of(s).name())),
                    kv("states", Long.toString(s.states())), kv("transitions", Long.toString(s.transitions())),
                    kv("depth", Integer.toString(s.depth())), kv("witnesses", w.toString()),
                    kv("seconds", String.format("%.3f", s.nanos() / 1e9)))));
        }
        field(b, 1, "scenarios", array(scenarios, 2), true);
        List<String> checkers = new ArrayList<>();
        for (CheckerRows c : r.checkers()) {
            List<String> rows = c.rows().stream().map(x -> object(4, List.of(kv("check", str(x.check())),
                    kv("target", str(x.target())), kv("expect", str(x.expect())), kv("verdict", str(x.verdict())),
                    kv("detail", str(x.detail()))))).toList();
            checkers.add(object(2, List.of(kv("name", str(c.checker())), kv("status", str(c.status())),
                    kv("note", str(c.note())), kv("rows", array(rows, 3)))));
        }
        field(b, 1, "checkers", array(checkers, 2), true);
        List<String> cx = new ArrayList<>();
        for (Counterexample c : r.counterexamples()) {
            cx.add(object(2, List.of(kv("logic", str(c.logic().id())), kv("scenario", str(c.scenario().name())),
                    kv("invariant", str(c.invariant().name())), kv("steps", Integer.toString(c.path().size())),
                    kv("replay", str(ReplayLine.of(c))))));
        }
        field(b, 1, "counterexamples", array(cx, 2), false);
        b.append("}\n");
        return b.toString();
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
