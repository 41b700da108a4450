package dev.relaycheck.checker.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What changed between two runs (before and after a change to the lease logic): the verdict, scenarios that
 * newly fail or pass, witnesses a scenario no longer reaches, catalogue variants that escape or are newly caught,
 * checker rows whose verdict flipped, the changed state and witness counts, and the counterexamples that are new
 * (with their replay lines) or gone. Something got worse when a verdict, a scenario, a variant or a checker row
 * went from good to bad, or a scenario lost a witness it used to reach: {@code relaycheck diff} then exits 1.
 *
 * <p>The logic under test may differ between the runs (the correct logic, then yours): its scenario results are
 * matched by scenario, its counterexamples by scenario and invariant, whatever its id.
 */
public record RunDiff(RunSummary before, RunSummary after, List<Item> items, List<RunSummary.CxLine> newCounterexamples,
                      List<RunSummary.CxLine> goneCounterexamples) {

    /** How a change bears on the merge. */
    public enum Kind { WORSE, BETTER, CHANGED }

    /** One change in one line; {@code sampled} when it comes from a sampled checker (it may flip run to run). */
    public record Item(Kind kind, String text, boolean sampled) {
    }

    private static final String SUBJECT = "(logic under test)";

    public static RunDiff of(RunSummary before, RunSummary after) {
        List<Item> items = new ArrayList<>();
        if (!before.verdict().equals(after.verdict())) {
            items.add(new Item(after.verdict().equals("PASS") ? Kind.BETTER : Kind.WORSE,
                    "verdict " + before.verdict() + " -> " + after.verdict(), false));
        }
        if (!before.logic().equals(after.logic())) {
            items.add(new Item(Kind.CHANGED, "logic under test " + before.logic() + " -> " + after.logic(), false));
        }
        if (!before.codeRelay().equals(after.codeRelay())) {
            items.add(new Item(Kind.CHANGED, "relay under test " + before.subject() + " -> " + after.subject(), false));
        }
        // a run that did not select the model (check --only sql) searched no scenario and found no counterexample:
        // the model's results of the other run are "not run" there, never lost witnesses or gone counterexamples
        boolean modelNow = ranModel(after);
        if (modelNow || !ranModel(before)) {
            scenarios(before, after, items);
        }
        rows(before, after, items);
        failures(before, after, items);
        Map<String, RunSummary.CxLine> was = modelNow ? byKey(before) : Map.of();
        Map<String, RunSummary.CxLine> is = byKey(after);
        List<RunSummary.CxLine> added = new ArrayList<>();
        is.forEach((k, c) -> {
            if (!was.containsKey(k) || !was.get(k).replay().equals(c.replay()) && !k.startsWith(SUBJECT)) {
                added.add(c);
            }
        });
        List<RunSummary.CxLine> gone = was.entrySet().stream().filter(e -> !is.containsKey(e.getKey())).map(Map.Entry::getValue).toList();
        // the worse items first, then the better, then the rest, each in the order found
        List<Item> sorted = new ArrayList<>();
        for (Kind k : Kind.values()) {
            items.stream().filter(i -> i.kind() == k).forEach(sorted::add);
        }
        return new RunDiff(before, after, sorted, added, gone);
    }

    public List<Item> of(Kind kind) {
        return items.stream().filter(i -> i.kind() == kind).toList();
    }

    public boolean worse() {
        return !of(Kind.WORSE).isEmpty();
    }

    /** The first line a reviewer reads. */
    public String headline() {
        int w = of(Kind.WORSE).size();
        int b = of(Kind.BETTER).size();
        int c = of(Kind.CHANGED).size();
        String counts = w + " worse, " + b + " better, " + c + " changed, " + newCounterexamples.size() + " new counterexample"
                + (newCounterexamples.size() == 1 ? "" : "s");
        if (w > 0) {
            return "WORSE: " + counts;
        }
        return (b + c + newCounterexamples.size() + goneCounterexamples.size() == 0 ? "NO CHANGE: " : "NOT WORSE: ") + counts;
    }

    private static void scenarios(RunSummary before, RunSummary after, List<Item> items) {
        Map<String, RunSummary.ScenarioLine> was = new LinkedHashMap<>();
        before.scenarios().forEach(s -> was.put(s.name(), s));
        Set<String> seen = new LinkedHashSet<>();
        for (RunSummary.ScenarioLine s : after.scenarios()) {
            seen.add(s.name());
            RunSummary.ScenarioLine o = was.get(s.name());
            if (o == null) {
                items.add(new Item(Kind.CHANGED, "scenario " + s.name() + ": new in this run, " + s.verdict(), false));
                continue;
            }
            if (!o.verdict().equals(s.verdict())) {
                Kind k = o.ok() ? Kind.WORSE : s.ok() ? Kind.BETTER : Kind.CHANGED;
                items.add(new Item(k, "scenario " + s.name() + ": " + o.verdict() + " -> " + s.verdict(), false));
            }
            List<String> counts = new ArrayList<>();
            // a search that stops at its first violation (or a bound) counts only what it saw until then
            boolean partial = stopped(s) && !stopped(o);
            count(counts, "states", o.states(), s.states());
            count(counts, "transitions", o.transitions(), s.transitions());
            count(counts, "depth", o.depth(), s.depth());
            Set<String> witnesses = new LinkedHashSet<>(o.witnesses().keySet());
            witnesses.addAll(s.witnesses().keySet());
            for (String w : witnesses) {
                long a = o.witnesses().getOrDefault(w, 0L);
                long b = s.witnesses().getOrDefault(w, 0L);
                boolean required = s.required().contains(w) || o.required().contains(w);
                if (a > 0 && b == 0 && !partial) {
                    items.add(new Item(Kind.WORSE, "scenario " + s.name() + ": lost witness " + w + (required ? " (required)" : "")
                            + ", reached " + a + " times before, never now", false));
                } else if (a == 0 && b > 0) {
                    items.add(new Item(Kind.BETTER, "scenario " + s.name() + ": reaches witness " + w + " now (" + b + " times)", false));
                } else {
                    count(counts, w, a, b);
                }
            }
            if (!counts.isEmpty()) {
                items.add(new Item(Kind.CHANGED, "scenario " + s.name() + ": " + String.join(", ", counts)
                        + (partial ? " (the search stopped at the violation)" : ""), false));
            }
        }
        was.keySet().stream().filter(n -> !seen.contains(n))
                .forEach(n -> items.add(new Item(Kind.CHANGED, "scenario " + n + ": not run in this run", false)));
    }

    private static boolean stopped(RunSummary.ScenarioLine s) {
        return s.verdict().startsWith("VIOLATION") || s.verdict().startsWith("INCOMPLETE");
    }

    private static void count(List<String> out, String what, long a, long b) {
        if (a != b) {
            out.add(String.format("%s %,d -> %,d (%+,d)", what, a, b, b - a));
        }
    }

    /** Every checker row but the model's rows of the logic under test (the scenarios above say the same). */
    private static void rows(RunSummary before, RunSummary after, List<Item> items) {
        Map<String, RunSummary.RowLine> was = new LinkedHashMap<>();
        before.rows().stream().filter(r -> !subjectModelRow(r)).forEach(r -> was.put(r.key(), r));
        Set<String> seen = new LinkedHashSet<>();
        Set<String> ranBefore = checkersWithRows(before);
        Set<String> ranNow = checkersWithRows(after);
        // a checker that ran in one run only (e.g. --only model before): one line, not one per row
        for (String c : ranNow) {
            if (!ranBefore.contains(c)) {
                long n = after.rows().stream().filter(r -> r.checker().equals(c)).count();
                items.add(new Item(Kind.CHANGED, c + ": not run before, " + n + " results now", false));
            }
        }
        for (String c : ranBefore) {
            if (!ranNow.contains(c)) {
                long n = before.rows().stream().filter(r -> r.checker().equals(c)).count();
                items.add(new Item(Kind.CHANGED, c + ": not run in this run (" + n + " results before)", false));
            }
        }
        for (RunSummary.RowLine r : after.rows()) {
            if (subjectModelRow(r)) {
                continue;
            }
            seen.add(r.key());
            RunSummary.RowLine o = was.get(r.key());
            boolean sampled = Sampling.sampled(r.checker(), r.check());
            String name = r.checker().equals("model") && r.expect().equals("CATCH")
                    ? "variant " + r.target() + " (model)" : r.checker() + " " + r.check() + " on " + r.target();
            if (o == null) {
                if (!r.good() || ranBefore.contains(r.checker())) {
                    items.add(new Item(r.good() ? Kind.CHANGED : Kind.WORSE, name + ": new in this run, " + r.verdict() + " "
                            + r.detail(), sampled));
                }
            } else if (!o.verdict().equals(r.verdict())) {
                Kind k = o.good() && !r.good() ? Kind.WORSE : !o.good() && r.good() ? Kind.BETTER : Kind.CHANGED;
                items.add(new Item(k, name + ": " + o.verdict() + " -> " + r.verdict() + " (was: " + o.detail() + "; now: "
                        + r.detail() + ")", sampled));
            } else if (!sampled && !o.detail().equals(r.detail())) {
                items.add(new Item(Kind.CHANGED, name + ": " + o.detail() + " -> " + r.detail(), false));
            }
        }
        was.values().stream().filter(r -> !seen.contains(r.key()) && ranNow.contains(r.checker())).forEach(r -> items.add(new Item(Kind.CHANGED,
                r.checker() + " " + r.check() + " on " + r.target() + ": not run in this run (was " + r.verdict() + ")",
                Sampling.sampled(r.checker(), r.check()))));
    }

    /** The model has rows whenever it ran: one per scenario of the logic under test, one per catalogue variant. */
    private static boolean ranModel(RunSummary s) {
        return checkersWithRows(s).contains("model");
    }

    private static Set<String> checkersWithRows(RunSummary s) {
        Set<String> out = new LinkedHashSet<>();
        s.rows().forEach(r -> out.add(r.checker()));
        return out;
    }

    private static boolean subjectModelRow(RunSummary.RowLine r) {
        return r.checker().equals("model") && r.expect().equals("PASS");
    }

    /** Failures no row shows: a checker that did not complete, a variant that escaped every checker. */
    private static void failures(RunSummary before, RunSummary after, List<Item> items) {
        for (String f : after.failures()) {
            if (summaryOnly(f) && !before.failures().contains(f)) {
                items.add(new Item(Kind.WORSE, f, false));
            }
        }
        for (String f : before.failures()) {
            if (summaryOnly(f) && !after.failures().contains(f)) {
                String variant = variantOf(f);
                // a variant no checker of this run tried (the model left out) was not judged: not fixed either
                boolean judged = variant.isEmpty() || after.rows().stream()
                        .anyMatch(r -> r.target().equals(variant) && r.expect().equals("CATCH") && !r.verdict().equals("N/A"));
                items.add(judged ? new Item(Kind.BETTER, "no longer: " + f, false)
                        : new Item(Kind.CHANGED, "variant " + variant + ": not run in this run (was: " + f + ")", false));
            }
        }
    }

    private static final String VARIANT_FAILURE = "catalogue variant ";

    private static boolean summaryOnly(String failure) {
        return failure.contains(" did not complete") || failure.startsWith(VARIANT_FAILURE);
    }

    /** The variant a "catalogue variant X ..." failure names, or empty for another failure. */
    private static String variantOf(String failure) {
        if (!failure.startsWith(VARIANT_FAILURE)) {
            return "";
        }
        String rest = failure.substring(VARIANT_FAILURE.length());
        int space = rest.indexOf(' ');
        return space < 0 ? rest : rest.substring(0, space);
    }

    private static Map<String, RunSummary.CxLine> byKey(RunSummary s) {
        Map<String, RunSummary.CxLine> m = new LinkedHashMap<>();
        for (RunSummary.CxLine c : s.counterexamples()) {
            String who = c.logic().equals(s.logic()) ? SUBJECT : c.logic();
            m.putIfAbsent(who + " " + c.invariant() + " on " + c.scenario(), c);
        }
        return m;
    }

    /** The text {@code relaycheck diff} prints. */
    public String text() {
        StringBuilder b = new StringBuilder();
        b.append("relaycheck diff: ").append(headline()).append('\n');
        b.append("  before: ").append(before.source()).append(" (").append(before.subject()).append(", ").append(before.verdict()).append(")\n");
        b.append("  after:  ").append(after.source()).append(" (").append(after.subject()).append(", ").append(after.verdict()).append(")\n");
        for (Kind k : Kind.values()) {
            List<Item> some = of(k);
            if (some.isEmpty()) {
                continue;
            }
            b.append('\n').append(k).append(" (").append(some.size()).append(")\n");
            some.forEach(i -> b.append("  ").append(k == Kind.WORSE ? "- " : k == Kind.BETTER ? "+ " : "~ ").append(i.text())
                    .append(i.sampled() ? "  [sampled]" : "").append('\n'));
        }
        if (!newCounterexamples.isEmpty()) {
            b.append("\nNEW COUNTEREXAMPLES (").append(newCounterexamples.size()).append(")\n");
            newCounterexamples.forEach(c -> b.append("  ").append(c.logic()).append(": ").append(c.invariant()).append(" on ")
                    .append(c.scenario()).append(", ").append(c.steps()).append(" steps\n    ").append(c.replay()).append('\n'));
        }
        if (!goneCounterexamples.isEmpty()) {
            b.append("\nGONE COUNTEREXAMPLES (").append(goneCounterexamples.size()).append(")\n");
            goneCounterexamples.forEach(c -> b.append("  ").append(c.logic()).append(": ").append(c.invariant()).append(" on ")
                    .append(c.scenario()).append('\n'));
        }
        if (items.stream().anyMatch(Item::sampled)) {
            b.append("\n[sampled]: from real-thread checkers whose counts vary run to run; a flip there may be chance.\n");
        }
        return b.toString();
    }
}
