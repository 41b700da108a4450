package dev.relaycheck.checker.report;

import dev.relaycheck.checker.Counterexample;
import dev.relaycheck.checker.TraceStep;
import dev.relaycheck.model.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * A counterexample drawn as an inline SVG swimlane: one lane per poller, the producer (when it acts), the
 * consumer and the clock; one column per step; the step that broke the invariant in red. Healing steps
 * are drawn faded, runs of healing ticks as one box.
 */
public final class Swimlane {
    private static final int LANE = 46;
    private static final int COL = 118;
    private static final int LEFT = 86;

    private Swimlane() {
    }

    public static String svg(Counterexample cx) {
        List<String> lanes = new ArrayList<>(cx.scenario().pollers());
        if (cx.trace().stream().anyMatch(t -> t.step().actor().equals("producer"))) {
            lanes.add(0, "producer");
        }
        lanes.add("consumer");
        lanes.add("clock");
        List<List<TraceStep>> columns = columns(cx.trace());
        int width = Math.max(900, LEFT + columns.size() * COL + 10); // wide enough for the caption
        int height = lanes.size() * LANE + 24;
        StringBuilder b = new StringBuilder();
        b.append(String.format("<svg class=\"swimlane\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"swimlane of %s\">%n", width, height, width, height,
                Html.esc(cx.invariant().name())));
        for (int i = 0; i < lanes.size(); i++) {
            int y = 20 + i * LANE + LANE / 2;
            b.append(String.format("<text x=\"4\" y=\"%d\" class=\"lane\">%s</text>%n", y + 4, Html.esc(lanes.get(i))));
            b.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"lane-line\"/>%n", LEFT - 6, y, width - 4, y));
        }
        for (int c = 0; c < columns.size(); c++) {
            List<TraceStep> col = columns.get(c);
            TraceStep first = col.get(0);
            int x = LEFT + c * COL;
            boolean culprit = !cx.isLiveness() && first == cx.trace().get(cx.trace().size() - 1);
            String cls = culprit ? "step culprit" : first.healing() ? "step healing" : first.step().isFault() ? "step fault" : "step";
            String label = col.size() > 1 ? "Tick x" + col.size() : first.step().toString();
            int lane = lanes.indexOf(first.step().actor());
            box(b, x, lane, cls, "#" + first.number() + " " + label, first.outcome().toString());
            if (first.step() instanceof Step.Deliver && first.outcome() != null) {
                int consumer = lanes.indexOf("consumer");
                box(b, x, consumer, culprit ? "step culprit" : "step consumer", first.outcome().kind(), first.outcome().toString());
                int y1 = 20 + lane * LANE + LANE - 8;
                int y2 = 20 + consumer * LANE + 6;
                b.append(String.format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"call\"/>%n", x + COL / 2 - 4, y1,
                        x + COL / 2 - 4, y2));
            }
        }
        b.append(String.format("<text x=\"%d\" y=\"14\" class=\"caption\">%s</text>%n", LEFT,
                Html.esc(cx.invariant() + ": " + cx.violation().detail())));
        b.append("</svg>\n");
        return b.toString();
    }

    private static void box(StringBuilder b, int x, int lane, String cls, String label, String title) {
        int y = 20 + lane * LANE + 6;
        b.append(String.format("<g class=\"%s\"><title>%s</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"4\"/>"
                        + "<text x=\"%d\" y=\"%d\">%s</text></g>%n", cls, Html.esc(title), x, y, COL - 8, LANE - 12, x + 4,
                y + 20, Html.esc(shorten(label))));
    }

    private static String shorten(String s) {
        return s.length() <= 19 ? s : s.substring(0, 18) + "…";
    }

    /** One column per step, except that a run of healing ticks shares one. */
    private static List<List<TraceStep>> columns(List<TraceStep> trace) {
        List<List<TraceStep>> out = new ArrayList<>();
        for (int i = 0; i < trace.size(); ) {
            int run = Math.max(1, TraceStep.healingTicksFrom(trace, i));
            out.add(trace.subList(i, i + run));
            i += run;
        }
        return out;
    }
}
