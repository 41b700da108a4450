package dev.relaycheck.checker.report;

import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.TraceStep;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.Outcome;
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
 * the page. Healing steps in a row that did nothing (Ticks, empty claims) share one line. A SQL check's finding is
 * drawn the same way, with the states nobody could read hatched.
 */
public final class Swimlane {
    private static final String[] OWNER_COLOURS = {"o1", "o2", "o3", "o4"};

    private Swimlane() {
    }

    /**
     * One line of the story: a step on its actor's lane with the state before and after it, or null where nobody could
     * read it (a SQL relay's child JVM before the kill, a race's threads between commits).
     */
    record Line(int number, Step step, String label, String outcome, String kind, RelayState before, RelayState after,
                boolean healing, boolean fault, boolean idle) {
        static Line of(TraceStep t) {
            boolean idle = t.healing() && (t.step() instanceof Step.Tick || new Outcome.Claimed(List.of()).equals(t.outcome()));
            return new Line(t.number(), t.step(), t.step().toString(), t.outcome() == null ? null : t.outcome().toString(),
                    t.outcome() == null ? "" : t.outcome().kind(), t.before(), t.after(), t.healing(), t.step().isFault(), idle);
        }

        static Line of(int number, SqlFinding.Observed o) {
            String label = switch (o.phase()) {
                case "kill" -> "SIGKILL " + o.step().actor();
                case "end" -> "end";
                default -> o.step().toString();
            };
            return new Line(number, o.step(), label, o.outcome(), o.kind(), o.before(), o.after(), o.phase().equals("healing"),
                    o.step().isFault() || o.phase().equals("kill"), o.idle());
        }
    }

    /**
     * What a swimlane draws: a caption (the invariant and what broke), the pollers in lane order, the lines, and the
     * line that broke the invariant (-1: none did alone; {@code noCulprit} says what did).
     */
    record Story(String title, String detail, List<String> pollers, List<String> rows, List<Line> lines, int culprit, String noCulprit) {
    }

    public static String html(Counterexample cx) {
        List<Line> lines = cx.trace().stream().map(Line::of).toList();
        return html(new Story(cx.invariant().name(), cx.violation().detail(), cx.scenario().pollers(), List.of(), lines,
                cx.isLiveness() ? -1 : lines.size() - 1, "the healing phase (grey) could not finish the job"));
    }

    /** A SQL check's finding: the steps its relay took, with the state read back from the tables where anyone could. */
    public static String html(SqlFinding f) {
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < f.steps().size(); i++) {
            lines.add(Line.of(i + 1, f.steps().get(i)));
        }
        return html(new Story(f.title(), f.detail(), f.actors(), f.rows(), lines, f.culprit(), "the state read back at the end did"));
    }

    static String html(Story story) {
        List<Line> trace = story.lines();
        List<String> actors = new ArrayList<>();
        if (trace.stream().anyMatch(t -> t.step().actor().equals("producer"))) {
            actors.add("producer");
        }
        actors.addAll(story.pollers());
        if (trace.stream().anyMatch(t -> t.step() instanceof Step.Purge)) {
            actors.add(Step.Purge.CONSUMER); // the inbox cleanup's purges get a lane
        }
        if (trace.stream().anyMatch(t -> t.step() instanceof Step.Cleanup)) {
            actors.add(Step.Cleanup.JOB); // so does the outbox cleanup job
        }
        List<String> rows = story.rows().isEmpty() ? rowIds(trace) : story.rows();
        int culprit = story.culprit();
        int cause = cause(story);
        StringBuilder b = new StringBuilder();
        b.append("<div class=\"swimlane-box\">\n<p class=\"swimlane-caption\"><strong>").append(Html.esc(story.title())).append("</strong>: ")
                .append(Html.esc(story.detail())).append("</p>\n");
        b.append("<table class=\"swimlane\" aria-label=\"swimlane of ").append(Html.esc(story.title()))
                .append("\">\n<thead><tr><th class=\"n\">#</th>");
        actors.forEach(a -> b.append("<th>").append(Html.esc(a)).append("</th>"));
        rows.forEach(r -> b.append("<th class=\"row-lane\" title=\"outbox row ").append(Html.esc(r)).append("\">row ")
                .append(wrappable(r)).append("</th>"));
        b.append("<th>consumer</th><th>clock</th></tr></thead>\n<tbody>\n");
        String mark = story.title().matches("[A-Z_]+") ? story.title() : "broke it";
        for (int i = 0; i < trace.size(); ) {
            int run = Math.max(1, idleHealingFrom(trace, i));
            Line first = trace.get(i);
            Line last = trace.get(i + run - 1);
            String cls = i == culprit ? "culprit" : i == cause ? "cause" : first.healing() ? "healing" : "";
            b.append("<tr").append(cls.isEmpty() ? "" : " class=\"" + cls + "\"").append("><td class=\"n\">").append(first.number())
                    .append("</td>");
            String stepMark = i == culprit ? mark : i == cause ? (culprit >= 0 ? "contradicted by the culprit" : "last change to the stuck row") : "";
            for (String a : actors) {
                b.append("<td>");
                if (run == 1 && first.step().actor().equals(a)) {
                    b.append(stepBox(trace, i, run, stepMark));
                }
                b.append("</td>");
            }
            for (String r : rows) {
                b.append(rowCell(first.before(), last.after(), r, story.pollers(), i == culprit || i == cause));
            }
            b.append(consumerCell(first, last, rows)).append("<td>");
            if (run > 1 || first.step().actor().equals("clock")) { // a run of idle healing steps goes on the clock's lane
                b.append(stepBox(trace, i, run, i == culprit ? mark : ""));
            }
            b.append("</td></tr>\n");
            i += run;
        }
        b.append("</tbody></table>\n");
        legend(b, story, cause);
        b.append("</div>\n");
        return b.toString();
    }

    /**
     * Length of the run of idle healing steps starting at {@code i} (0 if none): Ticks and claims that found nothing,
     * drawn as one line (a relay that cannot finish spends its healing phase on them).
     */
    private static int idleHealingFrom(List<Line> trace, int i) {
        int n = 0;
        while (i + n < trace.size() && trace.get(i + n).idle()) {
            n++;
        }
        return n;
    }

    /** The box of a step (or of a run of healing ticks, first to last) on its actor's lane. */
    private static String stepBox(List<Line> trace, int i, int run, String mark) {
        Line t = trace.get(i);
        Line last = trace.get(i + run - 1);
        String label = run == 1 ? t.label() : trace.subList(i, i + run).stream().allMatch(l -> l.step() instanceof Step.Tick)
                ? "Tick ×" + run : run + " idle steps: claims that found nothing, Ticks";
        String kind = t.fault() ? "fault" : t.healing() ? "heal" : "act";
        StringBuilder b = new StringBuilder("<div class=\"box " + kind + "\" title=\"" + Html.esc("#" + t.number() + " "
                + label + " => " + last.outcome()) + "\"><span class=\"lbl\">" + wrappable(label) + "</span>");
        if (last.outcome() != null) {
            b.append("<span class=\"out\">").append(wrappable(last.outcome())).append("</span>");
        }
        if (!mark.isEmpty()) {
            b.append("<span class=\"mark\">").append(mark.contains(" ") ? mark : "&lt;== " + mark.replace("_", "_<wbr>"))
                    .append("</span>");
        }
        return b.append("</div>").toString();
    }

    /**
     * The row's state after the step as a bar; its text where it changed (and on the marked steps). Unread state is
     * drawn as such; a state read with nothing before it (after a kill, at the end of a race) shows every row's text.
     */
    private static String rowCell(RelayState before, RelayState after, String id, List<String> pollers, boolean marked) {
        if (after == null) {
            return "<td class=\"rowbar unread\" title=\"not read: nobody reads the tables here\"></td>";
        }
        OutboxRow was = before == null ? null : before.rows().stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
        OutboxRow row = after.rows().stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
        if (row == null) {
            String deleted = after.surroundings().cleanedUp().get(id);
            if (deleted == null) {
                return "<td class=\"rowbar none\"></td>";
            }
            boolean now = was != null || before == null || marked; // the step that deleted it, or a marked one
            return "<td class=\"rowbar deleted" + (was != null ? " changed" : "") + "\" title=\"" + Html.esc(id
                    + ": deleted by the outbox cleanup (it was " + deleted + ")") + "\">" + (now ? "<span class=\"lbl\">DELETED</span>" : "")
                    + "</td>";
        }
        boolean expired = row.lease() != null && !row.lease().liveAt(after.clock());
        boolean wasExpired = was != null && was.lease() != null && !was.lease().liveAt(before.clock());
        marked |= before == null;
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
                + (l.clockSkew() == 0 ? "" : " on a clock db" + (l.clockSkew() > 0 ? "+" : "") + l.clockSkew())
                + (l.liveAt(now) ? "" : " (expired)");
    }

    /** What the consumer's database did: the delivery's answer, markers written, effect counts, stock. */
    private static String consumerCell(Line first, Line last, List<String> rows) {
        List<String> parts = new ArrayList<>();
        if (first.step() instanceof Step.Deliver && first.outcome() != null && !first.kind().isEmpty()) {
            parts.add("<strong>" + Html.esc(first.kind()) + "</strong>");
        }
        if (last.after() == null) {
            return consumerBox(parts, false);
        }
        ConsumerState c1 = last.after().consumer();
        // read with nothing before it (after a kill, at a race's end): what the consumer holds for the rows drawn, and
        // its stock as it stands
        boolean unread = first.before() == null;
        ConsumerState c0 = unread ? ConsumerState.initial(java.util.Map.of()) : first.before().consumer();
        boolean twice = false;
        for (var e : c1.markers().entrySet()) {
            if (!c0.markers().containsKey(e.getKey()) && (!unread || rows.contains(e.getValue()))) {
                parts.add("marker +" + wrappable(e.getKey()) + (e.getKey().equals(e.getValue()) ? "" : " (for " + wrappable(e.getValue()) + ")"));
            }
        }
        for (var e : c1.effects().entrySet()) {
            if (c0.effectCount(e.getKey()) != e.getValue() && (!unread || rows.contains(e.getKey()))) {
                boolean dup = e.getValue() > 1;
                twice |= dup;
                parts.add((dup ? "<span class=\"bad\">" : "") + "effect " + wrappable(e.getKey()) + " ×" + e.getValue() + (dup ? "</span>" : ""));
            }
        }
        for (var e : c1.stock().entrySet()) {
            Integer was = c0.stock().get(e.getKey());
            if (unread) {
                parts.add(Html.esc(e.getKey()) + " " + e.getValue());
            } else if (!Objects.equals(was, e.getValue())) {
                parts.add(Html.esc(e.getKey()) + " " + was + "→" + e.getValue());
            }
        }
        return consumerBox(parts, twice);
    }

    /** The consumer lane's cell: its lines in one box, red-edged when an effect landed twice; empty without lines. */
    private static String consumerBox(List<String> parts, boolean twice) {
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
        List<Line> lines = cx.trace().stream().map(Line::of).toList();
        return cause(new Story(cx.invariant().name(), cx.violation().detail(), cx.scenario().pollers(), List.of(), lines, culprit, ""));
    }

    private static int cause(Story story) {
        List<Line> trace = story.lines();
        int culprit = story.culprit();
        Set<String> touched = culprit >= 0 ? touched(trace.get(culprit)) : new LinkedHashSet<>();
        if (touched.isEmpty()) {
            for (String id : rowIds(trace)) {
                if (story.detail().matches(".*\\b" + java.util.regex.Pattern.quote(id) + "\\b.*")) {
                    touched.add("row " + id);
                }
            }
        }
        // a liveness failure's healing phase changed nothing that matters: look before it
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

    private static Set<String> touched(Line t) {
        Set<String> out = new LinkedHashSet<>();
        RelayState a = t.before();
        RelayState z = t.after();
        if (a == null || z == null) {
            return out; // not read: what it changed is not known
        }
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

    private static void legend(StringBuilder b, Story story, int cause) {
        List<Line> trace = story.lines();
        int culprit = story.culprit();
        b.append("<p class=\"legend\">");
        if (culprit >= 0) {
            b.append("<span class=\"key culprit\">#").append(trace.get(culprit).number()).append("</span> broke ")
                    .append(Html.esc(story.title())).append(". ");
        } else {
            b.append("No single step broke ").append(Html.esc(story.title())).append(": ").append(Html.esc(story.noCulprit())).append(". ");
        }
        if (cause >= 0) {
            b.append("<span class=\"key cause\">#").append(trace.get(cause).number()).append("</span> ")
                    .append(culprit >= 0 ? "is the earlier step it contradicts. " : "last changed the stuck row. ");
        }
        b.append("Row lanes: <span class=\"key o1\">lease</span> bars coloured by owner (").append(Html.esc(String.join(", ", story.pollers())))
                .append(") with token and expiry, <span class=\"key expired o1\">expired</span>, <span class=\"key delivered\">DELIVERED</span>");
        if (trace.stream().anyMatch(t -> t.after() == null)) {
            b.append(", <span class=\"key unread\">not read</span> where nobody reads the tables");
        }
        b.append(".</p>\n");
    }

    private static List<String> rowIds(List<Line> trace) {
        Set<String> ids = new LinkedHashSet<>();
        for (Line t : trace) {
            for (RelayState s : new RelayState[]{t.before(), t.after()}) {
                if (s != null) {
                    s.rows().forEach(r -> ids.add(r.id()));
                }
            }
        }
        return new ArrayList<>(ids);
    }

    /** Escaped, with break opportunities after commas, brackets and slashes, so a long step label wraps, never clips. */
    static String wrappable(String s) {
        return Html.esc(s).replaceAll("([,(\\[/])", "$1<wbr>");
    }
}
