package dev.relaycheck.checker.report;

import dev.relaycheck.code.check.CodeCheck;
import dev.relaycheck.code.check.CodeReport;
import dev.relaycheck.code.judge.Finding;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.TraceLine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The page of a check of a relay's own code ({@code relaycheck code}): per database, what ran and what it reached,
 * and each invariant broken as a swimlane, an instance a lane, statement by statement, with what each step changed in
 * the committed outbox and effects, the culprit step marked, and the line that replays it.
 */
public final class CodeHtml {
    private CodeHtml() {
    }

    public static String page(String relay, List<CodeCheck.Outcome> outcomes, Function<CodeCheck.Failure, String> replay) {
        StringBuilder b = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>relaycheck code</title>
                <style>
                body{font-family:system-ui,sans-serif;margin:16px;color:#1d2430;max-width:1400px}
                h1{font-size:20px} h2{font-size:16px;margin-top:22px} h3{font-size:14px;margin:14px 0 4px}
                .verdict{font-weight:700} .PASSED{color:#1a7f37} .FAILED{color:#c01818} .INCONCLUSIVE,.VACUOUS{color:#b05a00}
                table.lanes{border-collapse:collapse;width:100%;table-layout:fixed;font-size:12px}
                table.lanes th,table.lanes td{border:1px solid #eceff3;padding:2px 4px;vertical-align:top;overflow-wrap:anywhere}
                table.lanes th{background:#f6f8fa} td.n{width:2.8em;text-align:right;color:#6a737d}
                .box{display:block;border:1px solid #5b8def;background:#eef3fd;border-radius:4px;padding:2px 4px;font-family:ui-monospace,Menlo,monospace}
                .box.fault{border-color:#e0a030;background:#fff4e0} .box.clock,.box.idle{border-color:#bbb;background:#f5f5f5;color:#555}
                .res{display:block;color:#444;font-family:system-ui,sans-serif}
                tr.culprit .box{border:2px solid #d64545;background:#fde8e8} tr.culprit td.n{color:#c01818;font-weight:700}
                .mark{display:block;color:#c01818;font-weight:700} .changes{color:#1d2430}
                pre{white-space:pre-wrap;overflow-wrap:anywhere} pre.replay{background:#f6f8fa;padding:6px}
                </style></head><body>
                """);
        b.append("<h1>relaycheck code: relay <code>").append(Html.esc(relay)).append("</code></h1>\n");
        for (CodeCheck.Outcome o : outcomes) {
            b.append("<h2>").append(Html.esc(o.db().describe())).append(": <span class=\"verdict ").append(o.verdict()).append("\">")
                    .append(o.verdict()).append("</span></h2>\n<p>").append(Html.esc(CodeReport.heading(relay, o))).append("</p>\n<pre>")
                    .append(Html.esc(CodeReport.text(relay, o, f -> "(below)").lines().skip(1).filter(l -> !l.startsWith("    "))
                            .reduce("", (x, y) -> x + y + "\n"))).append("</pre>\n");
            for (CodeCheck.Failure f : o.failures().values()) {
                b.append(lanes(f.finding(), f.result(), "run " + f.run().index() + " (" + f.run().strategy() + " seed " + f.run().seed() + ")"));
                b.append("<pre class=\"replay\">").append(Html.esc(replay.apply(f))).append("</pre>\n");
            }
        }
        return b.append("</body></html>\n").toString();
    }

    /** One finding's run as a swimlane, up to the step that broke it (all of it for one found at the end). */
    static String lanes(Finding finding, RunResult run, String which) {
        List<TraceLine> steps = run.trace().stream().filter(t -> finding.step() <= 0 || t.number() <= finding.step()).toList();
        List<String> actors = new ArrayList<>();
        steps.forEach(t -> {
            if (!t.actor().equals("clock") && !actors.contains(t.actor())) {
                actors.add(t.actor());
            }
        });
        actors.sort((x, y) -> x.equals("producer") ? -1 : y.equals("producer") ? 1 : 0);
        StringBuilder b = new StringBuilder("<h3>").append(finding.invariant()).append(" in ").append(Html.esc(which)).append("</h3>\n<p>")
                .append(Html.esc(finding.detail())).append("</p>\n<table class=\"lanes\"><thead><tr><th class=\"n\">#</th>");
        actors.forEach(a -> b.append("<th>").append(Html.esc(a)).append("</th>"));
        b.append("<th>clock</th><th>committed outbox and effects</th></tr></thead><tbody>\n");
        for (int i = 0; i < steps.size(); i++) {
            TraceLine t = steps.get(i);
            int idle = 0;
            while (i + idle < steps.size() && CodeReport.idle(steps.get(i + idle))) {
                idle++;
            }
            if (idle > 3) {
                b.append("<tr><td class=\"n\">").append(t.number()).append("</td><td colspan=\"").append(actors.size() + 2)
                        .append("\"><span class=\"box idle\">").append(idle).append(" healing steps that changed nothing, to ")
                        .append(Html.esc(steps.get(i + idle - 1).clock())).append("</span></td></tr>\n");
                i += idle - 1;
                continue;
            }
            boolean culprit = t.number() == finding.step();
            b.append("<tr").append(culprit ? " class=\"culprit\"" : "").append("><td class=\"n\">").append(t.number()).append("</td>");
            for (String a : actors) {
                b.append("<td>");
                if (a.equals(t.actor())) {
                    b.append(box(t, culprit ? finding.invariant().name() : ""));
                }
                b.append("</td>");
            }
            b.append("<td>").append(t.actor().equals("clock") ? box(t, "") : Html.esc(t.clock())).append("</td><td class=\"changes\">")
                    .append(Html.esc(t.changes())).append("</td></tr>\n");
        }
        return b.append("</tbody></table>\n").toString();
    }

    private static String box(TraceLine t, String mark) {
        String kind = t.choice().contains(":") ? "fault" : t.actor().equals("clock") ? "clock" : "";
        return "<span class=\"box " + kind + "\">" + Html.esc(t.point()) + (t.result().isEmpty() ? ""
                : "<span class=\"res\">" + Html.esc(t.result()) + "</span>") + (mark.isEmpty() ? "" : "<span class=\"mark\">&lt;== " + mark + "</span>")
                + "</span>";
    }
}
