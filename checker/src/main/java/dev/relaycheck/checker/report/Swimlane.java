package dev.relaycheck.checker.report;

import dev.relaycheck.checker.replay.Counterexample;
import dev.relaycheck.checker.trace.TraceStep;
import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RowStatus;
import dev.relaycheck.model.Step;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A counterexample drawn as a swimlane that tells the story on its own: time runs down, one lane per actor
 * (the producer when it acts, each poller, the consumer and the clock) with every step's full label and outcome,
 * and one lane per outbox row carrying the row's state as bars: who holds the lease with which token until when,
 * when it expired, when it went DELIVERED. The consumer lane shows markers written and effect counts, a second
 * effect in red. The step that broke the invariant is marked, and so is the earlier step it contradicts (the
 * last one that changed what the culprit changed: the claim whose token a stale ack ignored, the first effect a
 * duplicate repeats). It is an HTML table (no script), so labels wrap instead of being cut and its width follows
 * the page. Healing ticks in a row share one line.
 */
public final class Swimlane {
    private static final String[] OWNER_COLOURS = {"o1", "o2", "o3", "o4"};

    private Swimlane() {
    }

    public static String html(Counterexample cx) {
        List<TraceStep> trace = cx.trace();
        List<String> actors = new ArrayList<>();
        if (trace.stream().anyMatch(t -> t.step().actor().equals("producer"))) {
            actors.add("producer");
        }
        actors.addAll(cx.scenario().pollers());
        if (trace.stream().anyMatch(t -> t.step() instanceof dev.relaycheck.model.Step.Purge)) {
            actors.add(dev.relaycheck.model.Step.Purge.CONSUMER); // the inbox cleanup's purges (issue 20) get a lane
        }
        List<String> rows = rowIds(trace);
        int culprit = cx.isLiveness() ? -1 : trace.size() - 1;
        int cause = cause(cx, culprit);
        StringBuilder b = new StringBuilder();
        b.append("<div class=\"swimlane-box\">\n<p class=\"swimlane-caption\"><strong>").append(cx.invariant()).append("</strong>: ")
                .append(Html.esc(cx.violation().detail())).append("</p>\n");
        b.append("<table class=\"swimlane\" aria-label=\"swimlane of ").append(cx.invariant()).append("\">\n<thead><tr><th class=\"n\">#</th>");
        actors.forEach(a -> b.append("<th>").append(Html.esc(a)).append("</th>"));
        rows.forEach(r -> b.append("<th class=\"row-lane\" title=\"outbox row ").append(Html.esc(r)).append("\">row ")
                .append(wrappable(r)).append("</th>"));
        b.append("<th>consumer</th><th>clock</th></tr></thead>\n<tbody>\n");
        for (int i = 0; i < trace.size(); ) {
            int run = Math.max(1, TraceStep.healingTicksFrom(trace, i));
            TraceStep first = trace.get(i);
            TraceStep last = trace.get(i + run - 1);
            String cls = i == culprit ? "culprit" : i == cause ? "cause" : first.healing() ? "healing" : "";
            b.append("<tr").append(cls.isEmpty() ? "" : " class=\"" + cls + "\"").append("><td class=\"n\">").append(first.number())
                    .append("</td>");
            for (String a : actors) {
                b.append("<td>");
                if (first.step().actor().equals(a)) {
                    b.append(stepBox(first, last, run, i == culprit ? cx.invariant().name() : i == cause ? (culprit >= 0
                            ? "contradicted by the culprit" : "last change to the stuck row") : ""));
                }
                b.append("</td>");
            }
            for (String r : rows) {
                b.append(rowCell(first.before(), last.after(), r, cx.scenario().pollers(), i == culprit || i == cause));
            }
            b.append(consumerCell(first, last)).append("<td>");
            if (first.step().actor().equals("clock")) {
                b.append(stepBox(first, last, run, i == culprit ? cx.invariant().name() : ""));
            }
            b.append("</td></tr>\n");
            i += run;
        }
        b.append("</tbody></table>\n");
        legend(b, cx, culprit, cause);
        b.append("</div>\n");
        return b.toString();
    }

    /** The box of a step (or of a run of healing ticks, first to last) on its actor's lane. */
    private static String stepBox(TraceStep t, TraceStep last, int run, String mark) {
        String kind = t.step().isFault() ? "fault" : t.healing() ? "heal" : "act";
        String label = run > 1 ? "Tick ×" + run : t.step().toString();
        StringBuilder b = new StringBuilder("<div class=\"box " + kind + "\" title=\"" + Html.esc("#" + t.number() + " "
                + label + " => " + last.outcome()) + "\"><span class=\"lbl\">" + wrappable(label) + "</span>");
        if (last.outcome() != null) {
            b.append("<span class=\"out\">").append(wrappable(last.outcome().toString())).append("</span>");
        }
        if (!mark.isEmpty()) {
            b.append("<span class=\"mark\">").append(mark.contains(" ") ? mark : "&lt;== " + mark.replace("_", "_<wbr>"))
                    .append("</span>");
        }
        return b.append("</div>").toString();
    }

    /** The row's state after the step as a bar; its text where it changed (and on the marked steps). */
    private static String rowCell(RelayState before, RelayState after, String id, List<String> pollers, boolean marked) {
        OutboxRow was = before.rows().stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
        OutboxRow row = after.rows().stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
        if (row == null) {
            return "<td class=\"rowbar none\"></td>";
        }
        boolean expired = row.lease() != null && row.lease().expiredAt(after.clock());
        boolean wasExpired = was != null && was.lease() != null && was.lease().expiredAt(before.clock());
        String cls = row.status() == RowStatus.DELIVERED ? "delivered" : row.lease() == null ? "free"
                : (expired ? "expired " : "") + OWNER_COLOURS[Math.max(0, pollers.indexOf(row.lease().owner())) % OWNER_COLOURS.length];
        boolean changed = !Objects.equals(was, row) || expired != wasExpired;
        StringBuilder b = new StringBuilder("<td class=\"rowbar " + cls + (changed ? " changed" : "") + "\" title=\""
                + Html.esc(id + ": " + rowText(row, after.clock())) + "\">");
        if (changed || marked) {
            b.append("<span class=\"lbl\">").append(Html.esc(rowText(row, after.clock()))).append("</span>");
        }
        return b.append("</td>").toString();
    }

    private static String rowText(OutboxRow row, int now) {
        if (row.status() == RowStatus.DELIVERED) {
            return "DELIVERED";
        }
        Lease l = row.lease();
        if (l == null) {
            return "PENDING, free";
        }
        return "PENDING " + l.owner() + " t" + l.token() + " exp " + (l.expiry() == Lease.NEVER ? "never" : Integer.toString(l.expiry()))
                + (l.expiredAt(now) ? " (expired)" : "");
    }

    /** What the consumer's database did: the delivery's answer, markers written, effect counts, stock. */
    private static String consumerCell(TraceStep first, TraceStep last) {
        ConsumerState c0 = first.before().consumer();
        ConsumerState c1 = last.after().consumer();
        List<String> parts = new ArrayList<>();
        boolean twice = false;
        if (first.step() instanceof Step.Deliver && first.outcome() != null) {
            parts.add("<strong>" + Html.esc(first.outcome().kind()) + "</strong>");
        }
        for (var e : c1.markers().entrySet()) {
            if (!c0.markers().containsKey(e.getKey())) {
                parts.add("marker +" + wrappable(e.getKey()) + (e.getKey().equals(e.getValue()) ? "" : " (for " + wrappable(e.getValue()) + ")"));
            }
        }
        for (var e : c1.effects().entrySet()) {
            if (c0.effectCount(e.getKey()) != e.getValue()) {
                boolean dup = e.getValue() > 1;
                twice |= dup;
                parts.add((dup ? "<span class=\"bad\">" : "") + "effect " + wrappable(e.getKey()) + " ×" + e.getValue() + (dup ? "</span>" : ""));
            }
        }
        for (var e : c1.stock().entrySet()) {
            Integer was = c0.stock().get(e.getKey());
            if (!Objects.equals(was, e.getValue())) {
                parts.add(Html.esc(e.getKey()) + " " + was + "→" + e.getValue());
            }
        }
        if (parts.isEmpty()) {
            return "<td></td>";
        }
        return "<td><div class=\"box consumer" + (twice ? " twice" : "") + "\"><span class=\"lbl\">" + String.join("<br>", parts)
                + "</span></div></td>";
    }

    /**
     * The earlier step the culprit contradicts: the last step before it that changed something the culprit
     * changed (an outbox row, a marker, an effect); when the culprit changed nothing (a liveness failure), the
     * last explored step that changed a row the violation names.
     */
    static int cause(Counterexample cx, int culprit) {
        List<TraceStep> trace = cx.trace();
        Set<String> touched = culprit >= 0 ? touched(trace.get(culprit)) : new LinkedHashSet<>();
        if (touched.isEmpty()) {
            for (String id : rowIds(trace)) {
                if (cx.violation().detail().matches(".*\\b" + java.util.regex.Pattern.quote(id) + "\\b.*")) {
                    touched.add("row " + id);
                }
            }
        }
        int from = culprit >= 0 ? culprit : (int) trace.stream().filter(t -> !t.healing()).count();
        for (int j = from - 1; j >= 0; j--) {
            Set<String> t = touched(trace.get(j));
            t.retainAll(touched);
            if (!t.isEmpty()) {
                return j;
            }
        }
        return -2;
    }

    private static Set<String> touched(TraceStep t) {
        Set<String> out = new LinkedHashSet<>();
        RelayState a = t.before();
        RelayState z = t.after();
        for (OutboxRow r : z.rows()) {
            if (!a.row(r.id()).map(r::equals).orElse(false)) {
                out.add("row " + r.id());
            }
        }
        z.consumer().markers().forEach((k, v) -> {
            if (!a.consumer().markers().containsKey(k)) {
                out.add("consumer " + v);
            }
        });
        z.consumer().effects().forEach((k, v) -> {
            if (a.consumer().effectCount(k) != v) {
                out.add("consumer " + k);
            }
        });
        return out;
    }

    private static void legend(StringBuilder b, Counterexample cx, int culprit, int cause) {
        List<TraceStep> trace = cx.trace();
        b.append("<p class=\"legend\">");
        if (culprit >= 0) {
            b.append("<span class=\"key culprit\">#").append(trace.get(culprit).number()).append("</span> broke ")
                    .append(cx.invariant()).append(". ");
        } else {
            b.append("No single step broke ").append(cx.invariant()).append(": the healing phase (grey) could not finish the job. ");
        }
        if (cause >= 0) {
            b.append("<span class=\"key cause\">#").append(trace.get(cause).number()).append("</span> ")
                    .append(culprit >= 0 ? "is the earlier step it contradicts. " : "last changed the stuck row. ");
        }
        b.append("Row lanes: <span class=\"key o1\">lease</span> bars coloured by owner (p1, p2, p3) with token and "
                + "expiry, <span class=\"key expired o1\">expired</span>, <span class=\"key delivered\">DELIVERED</span>.</p>\n");
    }

    private static List<String> rowIds(List<TraceStep> trace) {
        Set<String> ids = new LinkedHashSet<>();
        for (TraceStep t : trace) {
            t.before().rows().forEach(r -> ids.add(r.id()));
            t.after().rows().forEach(r -> ids.add(r.id()));
        }
        return new ArrayList<>(ids);
    }

    /** Escaped, with break opportunities after commas, brackets and slashes, so a long step label wraps, never clips. */
    static String wrappable(String s) {
        return Html.esc(s).replaceAll("([,(\\[/])", "$1<wbr>");
    }
}
