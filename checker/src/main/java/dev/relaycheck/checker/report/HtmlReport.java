package dev.relaycheck.checker.report;

import dev.relaycheck.checker.Counterexample;
import dev.relaycheck.checker.ReplayRecord;
import dev.relaycheck.checker.SearchResult;
import dev.relaycheck.checker.TraceFormatter;
import dev.relaycheck.model.Witness;

import java.util.List;
import java.util.Optional;

/**
 * results/index.html: one self-contained page (no scripts, fonts or styles from elsewhere) that a person
 * reads before merging a change to lease logic.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    private static final String STYLE = """
            body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d2430;max-width:1400px}
            h1{font-size:22px;margin:0 0 8px} h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d5dae1}
            h3{font-size:15px;margin:18px 0 6px}
            .verdict{font-size:20px;font-weight:700;padding:12px 16px;border-radius:6px;margin:10px 0}
            .pass{background:#e3f6e8;color:#17602c;border:1px solid #9bd3ab} .fail{background:#fde8e8;color:#8a1c1c;border:1px solid #eaa}
            table{border-collapse:collapse;margin:6px 0} td,th{border:1px solid #d5dae1;padding:3px 8px;text-align:left;vertical-align:top}
            th{background:#f3f5f8} td.caught{background:#e3f6e8} td.escaped{background:#fde8e8} td.na{color:#98a1ad}
            pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:8px;overflow-x:auto;font-size:12px}
            code,.replay{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}
            .bar{display:inline-block;height:12px;background:#5b8def;vertical-align:middle}
            .bar.FORBIDDEN{background:#d64545} .bar.ACCEPTABLE_INTERESTING{background:#e0a030}
            .swimlane{border:1px solid #e1e4e8;background:#fff;margin:6px 0}
            .swimlane .lane{font:12px sans-serif;fill:#333} .swimlane .lane-line{stroke:#e1e4e8}
            .swimlane .step rect{fill:#eef3fd;stroke:#5b8def} .swimlane .step text{font:10px monospace;fill:#1d2430}
            .swimlane .fault rect{fill:#fff4e0;stroke:#e0a030} .swimlane .consumer rect{fill:#eef8f0;stroke:#4a9d5b}
            .swimlane .healing rect{fill:#f5f5f5;stroke:#bbb} .swimlane .culprit rect{fill:#fde8e8;stroke:#d64545;stroke-width:2}
            .swimlane .call{stroke:#4a9d5b;stroke-dasharray:3 2} .swimlane .caption{font:12px sans-serif;fill:#8a1c1c}
            .muted{color:#6a737d}
            """;

    public static String render(Report r, List<String> lincheckTraces, boolean jcstressHtml) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>relaycheck: ")
                .append(r.passed() ? "PASS" : "FAIL").append(" for ").append(Html.esc(r.subject().id()))
                .append("</title>\n<style>").append(STYLE).append("</style></head><body>\n");
        b.append("<h1>relaycheck report</h1>\n<p class=\"muted\">Logic under test: <code>").append(Html.esc(r.subject().id()))
                .append("</code>: ").append(Html.esc(r.subject().description())).append("</p>\n");
        b.append("<div id=\"verdict\" class=\"verdict ").append(r.passed() ? "pass\">PASS" : "fail\">FAIL").append("</div>\n");
        List<String> failures = r.failures();
        if (!failures.isEmpty()) {
            b.append("<ul id=\"failures\">");
            failures.forEach(f -> b.append("<li>").append(Html.esc(f)).append("</li>"));
            b.append("</ul>\n");
        }
        r.notes().forEach(n -> b.append("<p class=\"muted\">").append(Html.esc(n)).append("</p>\n"));
        matrix(b, r);
        checkers(b, r, lincheckTraces, jcstressHtml);
        scenarios(b, r);
        histograms(b, r);
        counterexamples(b, r);
        b.append("</body></html>\n");
        return b.toString();
    }

    private static void matrix(StringBuilder b, Report r) {
        b.append("<h2>Kill matrix</h2>\n<p>Every catalogue variant (and every broken store) against every checker: the invariant "
                + "or forbidden outcome that caught it, <em>escaped</em> where it ran and was not caught, - where that checker "
                + "does not cover it. A variant must be caught by at least one checker.</p>\n");
        b.append("<table id=\"matrix\"><tr><th>#</th><th>variant</th>");
        r.columns().forEach(c -> b.append("<th>").append(c).append("</th>"));
        b.append("</tr>\n");
        int n = 0;
        for (String target : r.targets()) {
            b.append("<tr><td>").append(++n).append("</td><td><code>").append(Html.esc(target)).append("</code></td>");
            for (String c : r.columns()) {
                Optional<CheckerRows.Row> cell = r.cell(c, target);
                String cls = cell.isEmpty() || cell.get().notApplicable() ? "na" : cell.get().caught() ? "caught" : "escaped";
                b.append("<td class=\"").append(cls).append("\" title=\"").append(Html.esc(cell.map(x -> x.check() + ": " + x.detail()).orElse("")))
                        .append("\">").append(Html.esc(SummaryMarkdown.cellText(cell))).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    private static void checkers(StringBuilder b, Report r, List<String> lincheckTraces, boolean jcstressHtml) {
        b.append("<h2>Checkers</h2>\n<table id=\"checkers\"><tr><th>checker</th><th>status</th><th>what ran</th><th>report</th></tr>\n");
        for (CheckerRows c : r.checkers()) {
            b.append("<tr><td>").append(c.checker()).append("</td><td>").append(c.status()).append("</td><td>")
                    .append(Html.esc(c.note())).append("</td><td>");
            if (c.checker().equals("jcstress") && jcstressHtml) {
                b.append("<a href=\"jcstress/index.html\">jcstress HTML report</a>");
            } else if (c.checker().equals("lincheck")) {
                lincheckTraces.forEach(t -> b.append("<a href=\"lincheck/").append(Html.esc(t)).append("\">").append(Html.esc(t)).append("</a><br>"));
            } else if (!c.link().isEmpty()) {
                b.append("<a href=\"").append(Html.esc(c.link())).append("\">").append(Html.esc(c.link())).append("</a>");
            }
            b.append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static void scenarios(StringBuilder b, Report r) {
        b.append("<h2>Scenarios (exhaustive search of ").append(Html.esc(r.subject().id())).append(")</h2>\n");
        b.append("<table id=\"scenarios\"><tr><th>scenario</th><th>verdict</th><th>distinct states</th><th>transitions</th><th>depth</th>");
        for (Witness w : Witness.values()) {
            b.append("<th title=\"").append(Html.esc(w.description())).append("\">").append(w).append("</th>");
        }
        b.append("<th>time</th></tr>\n");
        for (SearchResult s : r.model().subject()) {
            b.append("<tr><td>").append(Html.esc(s.scenario().name())).append("</td><td>").append(Html.esc(s.verdictLine()))
                    .append(String.format("</td><td>%,d</td><td>%,d</td><td>%d</td>", s.states(), s.transitions(), s.depth()));
            for (Witness w : Witness.values()) {
                b.append("<td>").append(s.witnesses().getOrDefault(w, 0L))
                        .append(s.scenario().requiredWitnesses().contains(w) ? " (required)" : "").append("</td>");
            }
            b.append("<td>").append(Html.esc(s.timing())).append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static void histograms(StringBuilder b, Report r) {
        b.append("<h2>jcstress outcomes</h2>\n");
        if (r.histograms().isEmpty()) {
            b.append("<p class=\"muted\">No jcstress run in this check.</p>\n");
            return;
        }
        for (Histogram h : r.histograms()) {
            b.append("<h3>").append(Html.esc(h.harness())).append("</h3>\n<table class=\"histogram\">");
            long max = Math.max(1, h.bars().stream().mapToLong(Histogram.Bar::count).max().orElse(1));
            for (Histogram.Bar bar : h.bars()) {
                int px = (int) Math.round(300.0 * bar.count() / max);
                b.append("<tr><td><code>").append(Html.esc(bar.outcome())).append("</code></td><td>").append(bar.grade())
                        .append(String.format("</td><td style=\"text-align:right\">%,d</td><td><span class=\"bar %s\" style=\"width:%dpx\"></span></td><td>",
                                bar.count(), Html.esc(bar.grade()), Math.max(px, bar.count() > 0 ? 1 : 0)))
                        .append(Html.esc(bar.description())).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
    }

    private static void counterexamples(StringBuilder b, Report r) {
        b.append("<h2>Counterexamples</h2>\n<p>The logic under test's failures first, then the shortest counterexample that "
                + "caught each catalogue variant. Paste the replay line to re-run it step by step.</p>\n");
        for (Counterexample cx : r.counterexamples()) {
            b.append("<h3 id=\"cx-").append(Html.esc(cx.logic().id())).append("\">").append(Html.esc(cx.logic().id()))
                    .append(": ").append(cx.invariant()).append(" on ").append(Html.esc(cx.scenario().name())).append("</h3>\n");
            b.append(Swimlane.svg(cx));
            b.append("<pre>").append(Html.esc(TraceFormatter.format(cx))).append("</pre>\n");
            b.append("<p class=\"replay\">./relaycheck replay ").append(Html.esc(ReplayRecord.of(cx).toToken())).append("</p>\n");
        }
    }
}
