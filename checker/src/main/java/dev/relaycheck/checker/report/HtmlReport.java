package dev.relaycheck.checker.report;

import dev.relaycheck.checker.replay.ReplayLine;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.TraceFormatter;
import dev.relaycheck.model.Witness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * results/index.html: one self-contained page (no scripts, fonts or styles from elsewhere) that a person
 * reads before merging a change to lease logic. It reads from 900 px up without sideways scrolling: tables
 * and swimlanes follow the page width and wrap, traces wrap. With a baseline, the before/after comparison
 * comes first. Values that real-thread timing decides (timings, jcstress counts) are marked as sampled, and
 * timings sit in {@code <span class="t">} so a comparison can leave them out.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    private static final String STYLE = """
            *{box-sizing:border-box}
            body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:16px 20px;color:#1d2430;max-width:1400px}
            h1{font-size:22px;margin:0 0 8px} h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d5dae1}
            h3{font-size:15px;margin:22px 0 6px;overflow-wrap:anywhere}
            .verdict{font-size:20px;font-weight:700;padding:12px 16px;border-radius:6px;margin:10px 0}
            .pass{background:#e3f6e8;color:#17602c;border:1px solid #9bd3ab} .fail{background:#fde8e8;color:#8a1c1c;border:1px solid #eaa}
            table{border-collapse:collapse;margin:6px 0;max-width:100%} td,th{border:1px solid #d5dae1;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:break-word}
            th{background:#f3f5f8} td.caught{background:#e3f6e8} td.escaped{background:#fde8e8} td.na{color:#98a1ad}
            td.num{text-align:right;white-space:nowrap} td.req{font-weight:700} td.missing{background:#fde8e8;font-weight:700}
            .nowrap{white-space:nowrap}
            pre{background:#f6f8fa;border:1px solid #e1e4e8;padding:8px;font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere}
            pre mark{background:#fde8e8;color:#8a1c1c;font-weight:700}
            code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
            .replay{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
            .bar{display:inline-block;height:12px;background:#5b8def;vertical-align:middle}
            .bar.FORBIDDEN{background:#d64545} .bar.ACCEPTABLE_INTERESTING{background:#e0a030}
            .muted{color:#6a737d} .badge{white-space:nowrap;font-size:11px;font-weight:600;padding:1px 6px;border-radius:8px;background:#fff4e0;color:#8a5a00;border:1px solid #e0a030;vertical-align:middle}
            details{margin:6px 0} summary{cursor:pointer} .links{columns:18em;margin:4px 0;padding-left:18px}
            #baseline{border:2px solid #5b8def;border-radius:6px;padding:8px 14px;margin:10px 0;background:#f5f8fe}
            #baseline.worse{border-color:#d64545;background:#fff6f6} #baseline h2{margin-top:4px;border:0}
            #baseline li.WORSE{color:#8a1c1c;font-weight:600} #baseline li.BETTER{color:#17602c}
            .swimlane-box{margin:6px 0 10px}
            .swimlane-caption{margin:4px 0;color:#8a1c1c;overflow-wrap:anywhere}
            table.swimlane{width:100%;table-layout:fixed;font-size:12px}
            table.swimlane th{font-weight:600;font-size:12px} table.swimlane th.n,table.swimlane td.n{width:2.6em;text-align:right;color:#6a737d}
            table.swimlane th.row-lane{background:#eef0f4}
            table.swimlane td{padding:2px 3px;border-color:#eceff3;overflow-wrap:anywhere}
            .swimlane .box{border:1px solid #5b8def;background:#eef3fd;border-radius:4px;padding:2px 4px}
            .swimlane .box.fault{border-color:#e0a030;background:#fff4e0} .swimlane .box.heal{border-color:#bbb;background:#f5f5f5;color:#555}
            .swimlane .box.consumer{border-color:#4a9d5b;background:#eef8f0} .swimlane .box.twice{border-color:#d64545;border-width:2px}
            .swimlane .lbl,.swimlane .out,.swimlane .mark{display:block;overflow-wrap:anywhere}
            .swimlane .lbl{font-family:ui-monospace,Menlo,Consolas,monospace}
            .swimlane .out{color:#444} .swimlane .bad{color:#c01818;font-weight:700}
            .swimlane .mark{color:#c01818;font-weight:700}
            .swimlane tr.culprit .box.act,.swimlane tr.culprit .box.fault,.swimlane tr.culprit .box.heal{border:2px solid #d64545;background:#fde8e8}
            .swimlane tr.cause .box.act,.swimlane tr.cause .box.fault{border:2px dashed #e07b00;background:#fff1de}
            .swimlane tr.cause .mark{color:#b05a00}
            .swimlane tr.culprit td.n{color:#c01818;font-weight:700} .swimlane tr.cause td.n{color:#b05a00;font-weight:700}
            .swimlane td.rowbar{border-left:4px solid transparent;color:#1d2430}
            .swimlane td.o1{background:#dce8fd;border-left-color:#3b6fd8} .swimlane td.o2{background:#efe0fb;border-left-color:#8a46c8}
            .swimlane td.o3{background:#fde3cf;border-left-color:#d07020} .swimlane td.o4{background:#dcf3f2;border-left-color:#2a9d94}
            .swimlane td.expired{background-image:repeating-linear-gradient(45deg,transparent 0 5px,rgba(255,255,255,.75) 5px 10px)}
            .swimlane td.delivered{background:#e3f6e8;border-left-color:#2f8a47} .swimlane td.free{background:#f7f7f7;border-left-color:#bbb}
            .swimlane td.deleted{background:repeating-linear-gradient(135deg,#fff 0 4px,#f3d6d6 4px 8px);border-left-color:#a33}
            .swimlane td.changed .lbl{font-weight:600}
            .swimlane td.unread{background:repeating-linear-gradient(45deg,#fafafa 0 4px,#eee 4px 8px)} .key.unread{background:#eee}
            .legend{font-size:12px;color:#444;margin:2px 0} .key{display:inline-block;padding:0 5px;border:1px solid #ccc;border-radius:3px}
            .key.culprit{border:2px solid #d64545;background:#fde8e8} .key.cause{border:2px dashed #e07b00;background:#fff1de}
            .key.o1{background:#dce8fd;border-left:4px solid #3b6fd8} .key.delivered{background:#e3f6e8}
            .key.expired{background-image:repeating-linear-gradient(45deg,transparent 0 5px,rgba(255,255,255,.75) 5px 10px)}
            """;

    /** The page as {@code relaycheck check} writes it without a baseline. */
    public static String render(Report r, List<String> lincheckTraces, boolean jcstressHtml) {
        return render(r, new ReportLinks(jcstressHtml, lincheckTraces.stream().map(t -> "lincheck/" + t).toList(), List.of()),
                Optional.empty());
    }

    public static String render(Report r, ReportLinks links, Optional<RunDiff> baseline) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>relaycheck: ")
                .append(r.passed() ? "PASS" : "FAIL").append(" for ").append(Html.esc(r.about()))
                .append("</title>\n<style>").append(STYLE).append("</style></head><body>\n");
        b.append("<h1>relaycheck report</h1>\n");
        baseline.ifPresent(d -> baseline(b, d));
        b.append("<p class=\"muted\" id=\"logic\">").append(r.referenceLogic()
                        ? Report.referenceLogicLine(r.subject().id(), id -> "<code>" + Html.esc(id) + "</code>")
                        : "Logic under test: <code>" + Html.esc(r.subject().id()) + "</code>")
                .append(": ").append(Html.esc(r.subject().description())).append("</p>\n");
        r.codeRelay().ifPresent(c -> b.append("<p id=\"code-relay\">Relay under test, by its own code: <code>").append(Html.esc(c))
                .append("</code> (findings with their swimlanes: the code columns' pages)</p>\n"));
        r.sqlRelay().ifPresent(s -> b.append("<p id=\"sql-relay\">SQL relay under test: <code>").append(Html.esc(s.id()))
                .append("</code>: ").append(Html.esc(s.traits())).append("</p>\n"));
        b.append("<div id=\"verdict\" class=\"verdict ").append(r.passed() ? "pass\">PASS" : "fail\">FAIL").append("</div>\n");
        List<String> failures = r.failures();
        if (!failures.isEmpty()) {
            b.append("<ul id=\"failures\">");
            failures.forEach(f -> b.append("<li>").append(Html.esc(f)).append("</li>"));
            b.append("</ul>\n");
        }
        r.notes().forEach(n -> b.append("<p class=\"muted\">").append(Html.esc(n)).append("</p>\n"));
        b.append("<p class=\"muted\" id=\"sampling\"><span class=\"badge\">sampled</span> marks ").append(Html.esc(Sampling.WHAT))
                .append("</p>\n");
        matrix(b, r);
        checkers(b, r, links);
        scenarios(b, r);
        histograms(b, r);
        counterexamples(b, r);
        sqlFindings(b, r);
        b.append("</body></html>\n");
        return b.toString();
    }

    private static void baseline(StringBuilder b, RunDiff d) {
        b.append("<section id=\"baseline\" class=\"").append(d.worse() ? "worse" : "same").append("\"><h2>Before/after: ")
                .append(Html.esc(d.headline())).append("</h2>\n<p class=\"muted\">Compared with ").append(Html.esc(d.before().source()))
                .append(" (logic <code>").append(Html.esc(d.before().logic())).append("</code>, ").append(d.before().verdict())
                .append("); <code>relaycheck diff</code> prints the same.</p>\n");
        List<RunDiff.Item> decisive = d.items().stream().filter(i -> i.kind() != RunDiff.Kind.CHANGED).toList();
        if (!decisive.isEmpty()) {
            b.append("<ul>");
            decisive.forEach(i -> item(b, i));
            b.append("</ul>\n");
        }
        List<RunDiff.Item> changed = d.of(RunDiff.Kind.CHANGED);
        if (!changed.isEmpty()) {
            b.append("<details><summary>").append(changed.size()).append(" changed (counts of states, transitions, witnesses)</summary><ul>");
            changed.forEach(i -> item(b, i));
            b.append("</ul></details>\n");
        }
        if (!d.newCounterexamples().isEmpty()) {
            b.append("<details><summary>").append(d.newCounterexamples().size()).append(" new counterexamples: ");
            b.append(Html.esc(String.join(", ", d.newCounterexamples().stream()
                    .map(c -> c.logic() + " " + c.invariant() + " on " + c.scenario()).toList()))).append("</summary>\n");
            for (RunSummary.CxLine c : d.newCounterexamples()) {
                b.append("<p><code>").append(Html.esc(c.logic())).append("</code> ").append(Html.esc(c.invariant()))
                        .append(" on ").append(Html.esc(c.scenario())).append(", ").append(c.steps()).append(" steps</p><p class=\"replay\">")
                        .append(Html.esc(c.replay())).append("</p>\n");
            }
            b.append("</details>\n");
        }
        if (!d.goneCounterexamples().isEmpty()) {
            b.append("<p>Gone: ").append(Html.esc(String.join(", ", d.goneCounterexamples().stream()
                    .map(c -> c.logic() + " " + c.invariant() + " on " + c.scenario()).toList()))).append("</p>\n");
        }
        b.append("</section>\n");
    }

    private static void item(StringBuilder b, RunDiff.Item i) {
        b.append("<li class=\"").append(i.kind()).append("\">").append(i.kind()).append(": ").append(Html.esc(i.text()))
                .append(i.sampled() ? " <span class=\"badge\">sampled</span>" : "").append("</li>");
    }

    /** Escaped, with break opportunities after underscores, so a long invariant name wraps in a narrow column. */
    private static String breakable(String s) {
        return Html.esc(s).replace("_", "_<wbr>");
    }

    private static void matrix(StringBuilder b, Report r) {
        b.append("<h2>Kill matrix</h2>\n<p>Every catalogue variant (and every broken store) against every checker: the invariant "
                + "or forbidden outcome that caught it, <em>escaped</em> where it ran and was not caught, - where that checker "
                + "does not cover it, <em>not run</em> where that checker did not run (not selected, or no database). A variant "
                + "must be caught by at least one checker that covers it. jcstress cells are "
                + "<span class=\"badge\">sampled</span>.</p>\n");
        b.append("<table id=\"matrix\"><tr><th>#</th><th>variant</th>");
        r.columns().forEach(c -> b.append("<th>").append(c).append("</th>"));
        b.append("</tr>\n");
        int n = 0;
        for (String target : r.targets()) {
            b.append("<tr><td>").append(++n).append("</td><td class=\"nowrap\"><code>").append(Html.esc(target)).append("</code></td>");
            for (String c : r.columns()) {
                if (r.notRun(c)) {
                    b.append("<td class=\"na\">").append(SummaryMarkdown.NOT_RUN).append("</td>");
                    continue;
                }
                Optional<CheckerRows.Row> cell = r.cell(c, target);
                String cls = cell.isEmpty() || cell.get().notApplicable() ? "na" : cell.get().caught() ? "caught" : "escaped";
                b.append("<td class=\"").append(cls).append("\" title=\"").append(Html.esc(cell.map(x -> x.check() + ": " + x.detail()).orElse("")))
                        .append("\">").append(breakable(SummaryMarkdown.cellText(cell))).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    private static void checkers(StringBuilder b, Report r, ReportLinks links) {
        b.append("<h2>Checkers</h2>\n<table id=\"checkers\"><tr><th>checker</th><th>status</th><th>what ran</th><th>results</th>"
                + "<th>report</th></tr>\n");
        for (CheckerRows c : r.checkers()) {
            b.append("<tr><td>").append(c.checker()).append("</td><td>").append(c.status()).append("</td><td>")
                    .append(Html.esc(c.note())).append("</td><td>").append(kind(c)).append("</td><td>");
            switch (c.checker()) {
                case "jcstress" -> {
                    if (links.jcstressHtml()) {
                        b.append("<a href=\"jcstress/index.html\">jcstress HTML report</a>");
                    }
                }
                case "lincheck" -> linkList(b, links.lincheck(), "Lincheck trace");
                case "sql" -> linkList(b, links.sql(), "SQL report");
                default -> {
                    if (!c.link().isEmpty()) {
                        b.append("<a href=\"").append(Html.esc(c.link())).append("\">").append(Html.esc(c.link())).append("</a>");
                    }
                }
            }
            b.append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    /** Deterministic, sampled, or which of its checks are sampled. */
    private static String kind(CheckerRows c) {
        List<String> sampled = c.rows().stream().filter(x -> Sampling.sampled(c, x)).map(CheckerRows.Row::check).distinct().toList();
        if (c.rows().isEmpty()) {
            return "";
        }
        if (sampled.isEmpty()) {
            return "deterministic";
        }
        if (sampled.size() == c.rows().stream().map(CheckerRows.Row::check).distinct().count()) {
            return "<span class=\"badge\">sampled</span>";
        }
        return "deterministic but <span class=\"badge\">sampled</span> " + Html.esc(String.join(", ", sampled));
    }

    private static void linkList(StringBuilder b, List<String> hrefs, String what) {
        if (hrefs.isEmpty()) {
            return;
        }
        if (hrefs.size() <= 3) {
            hrefs.forEach(h -> b.append("<a href=\"").append(Html.esc(h)).append("\">").append(Html.esc(h.substring(h.indexOf('/') + 1)))
                    .append("</a><br>"));
            return;
        }
        b.append("<details><summary>").append(hrefs.size()).append(' ').append(what).append("s</summary><ul class=\"links\">");
        hrefs.forEach(h -> b.append("<li><a href=\"").append(Html.esc(h)).append("\">").append(Html.esc(h.substring(h.indexOf('/') + 1)))
                .append("</a></li>"));
        b.append("</ul></details>");
    }

    private static void scenarios(StringBuilder b, Report r) {
        if (!r.ran("model")) {
            b.append("<h2>Scenarios</h2>\n<p class=\"muted\" id=\"scenarios\">The model checker was not selected (--only): "
                    + "no exhaustive search of ").append(Html.esc(r.subject().id())).append(" ran.</p>\n");
            return;
        }
        b.append("<h2>Scenarios (exhaustive search of ").append(Html.esc(r.subject().id())).append(")</h2>\n");
        b.append("<p class=\"muted\">Witness counts: how often the search reached each outcome; <strong>bold</strong>: the "
                + "scenario requires it (never reached: vacuous, in red).</p>\n");
        b.append("<table id=\"scenarios\"><tr><th>scenario</th><th>verdict</th><th>distinct states</th><th>transitions</th><th>depth</th>");
        List<Witness> always = Witness.listed(x -> false);
        List<Witness> later = Witness.listed(x -> r.model().subject().stream().anyMatch(s -> s.witnesses().getOrDefault(x, 0L) > 0
                || s.scenario().requiredWitnesses().contains(x)));
        later.removeAll(always); // the lease, settle and timing witnesses share one column, so the table still fits 900 px
        for (Witness w : always) {
            b.append("<th title=\"").append(Html.esc(w.name() + ": " + w.description())).append("\">")
                    .append(w.name().toLowerCase(Locale.ROOT).replace('_', ' ')).append("</th>");
        }
        if (!later.isEmpty()) {
            b.append("<th title=\"witnesses of lease renewal, clock skew, commit visibility\">later</th>");
        }
        b.append("<th>time<br><span class=\"badge\">sampled</span></th></tr>\n");
        for (SearchResult s : r.model().subject()) {
            b.append("<tr><td>").append(Html.esc(s.scenario().name())).append("</td><td>").append(breakable(s.verdictLine()))
                    .append(String.format("</td><td class=\"num\">%,d</td><td class=\"num\">%,d</td><td class=\"num\">%d</td>",
                            s.states(), s.transitions(), s.depth()));
            java.util.Map<Witness, String> notApplicable = s.notApplicable();
            for (Witness w : always) {
                long n = s.witnesses().getOrDefault(w, 0L);
                boolean required = s.scenario().requiredWitnesses().contains(w);
                // a search that stopped at a violation did not get the chance to reach its witnesses: not vacuous
                boolean missing = required && n == 0 && !s.violated() && !notApplicable.containsKey(w);
                b.append("<td class=\"num").append(missing ? " missing" : required ? " req" : "").append("\"")
                        .append(notApplicable.containsKey(w) ? " title=\"not applicable to this logic: "
                                + Html.esc(notApplicable.get(w)) + "\">n/a" : ">" + n).append("</td>");
            }
            if (!later.isEmpty()) {
                b.append("<td style=\"font-size:smaller\">");
                for (Witness w : later) {
                    long n = s.witnesses().getOrDefault(w, 0L);
                    boolean required = s.scenario().requiredWitnesses().contains(w);
                    boolean missing = required && n == 0 && !s.violated() && !notApplicable.containsKey(w);
                    if (n > 0 || required) {
                        b.append("<span class=\"").append(missing ? "missing" : required ? "req" : "").append("\" title=\"")
                                .append(Html.esc(w.name() + ": " + (notApplicable.containsKey(w) ? "not applicable to this logic: "
                                        + notApplicable.get(w) : w.description()))).append("\">").append(w.name().toLowerCase(Locale.ROOT)
                                        .replace('_', ' ')).append(' ').append(notApplicable.containsKey(w) ? "n/a" : n).append("</span><br>");
                    }
                }
                b.append("</td>");
            }
            b.append("<td><span class=\"t\" title=\"").append(Html.esc(s.timing())).append("\">")
                    .append(String.format("%.2f s", s.nanos() / 1e9)).append("</span></td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static void histograms(StringBuilder b, Report r) {
        b.append("<h2>jcstress outcomes <span class=\"badge\">sampled</span></h2>\n");
        if (r.histograms().isEmpty()) {
            b.append("<p class=\"muted\">No jcstress run in this check.</p>\n");
            return;
        }
        b.append("<p class=\"muted\">Counts differ from run to run; what matters is whether a FORBIDDEN outcome was seen "
                + "(a bug, however rare) and whether each ACCEPTABLE_INTERESTING witness was. Open a test for its bars.</p>\n");
        for (Histogram h : r.histograms()) {
            long forbidden = h.bars().stream().filter(Histogram.Bar::forbidden).mapToLong(Histogram.Bar::count).sum();
            b.append("<details class=\"histogram\"><summary><code>").append(Html.esc(h.harness())).append("</code>: ")
                    .append(String.format("%,d samples", h.total())).append(forbidden > 0 ? String.format(", <strong>%,d forbidden</strong>", forbidden) : "")
                    .append("</summary>\n<table>");
            long max = Math.max(1, h.bars().stream().mapToLong(Histogram.Bar::count).max().orElse(1));
            for (Histogram.Bar bar : h.bars()) {
                int pct = (int) Math.round(100.0 * bar.count() / max);
                b.append("<tr><td><code title=\"").append(Html.esc("jcstress outcome " + bar.outcome())).append("\">")
                        .append(Html.esc(readableOutcome(bar.outcome()))).append("</code></td><td>").append(bar.grade())
                        .append(String.format("</td><td class=\"num\">%,d</td><td style=\"width:20%%\"><span class=\"bar %s\" style=\"width:%d%%\"></span></td><td>",
                                bar.count(), Html.esc(bar.grade()), Math.max(pct, bar.count() > 0 ? 1 : 0)))
                        .append(Html.esc(bar.description())).append("</td></tr>\n");
            }
            b.append("</table></details>\n");
        }
    }

    /**
     * A jcstress outcome id in words a person reads: an outcome declared as a regular expression
     * ({@code \d, [01], 2, .*}) shows {@code *} for any number, {@code 0|1} for a class, {@code ...} for the rest.
     */
    static String readableOutcome(String id) {
        if (!id.matches(".*[\\\\\\[\\]*+?].*")) {
            return id;
        }
        String s = id.replace("-?\\d+", "*").replace("\\d+", "*").replace("\\d", "*").replace(".*", "...");
        s = java.util.regex.Pattern.compile("\\[([^\\]]*)]").matcher(s).replaceAll(m -> String.join("|", m.group(1).split("")));
        return s.replace("\\", "").replace("^", "").replace("$", "");
    }

    private static void counterexamples(StringBuilder b, Report r) {
        if (r.counterexamples().isEmpty()) {
            return; // nothing failed in the model, or the model did not run (--only)
        }
        b.append("<h2>Counterexamples</h2>\n<p>The logic under test's failures first, every invariant it broke in each scenario "
                + "with its shortest counterexample, then the shortest counterexample that caught each catalogue variant. Read the swimlane top-down: the red step broke the invariant, the dashed "
                + "orange one is the earlier step it contradicts. Paste the replay line to re-run it step by step.</p>\n");
        for (Counterexample cx : r.counterexamples()) {
            b.append("<h3 id=\"cx-").append(Html.esc(cx.logic().id() + "-" + cx.scenario().name() + "-" + cx.invariant())).append("\">").append(Html.esc(cx.logic().id()))
                    .append(": ").append(cx.invariant()).append(" on ").append(Html.esc(cx.scenario().name())).append("</h3>\n");
            b.append(Swimlane.html(cx));
            b.append("<pre>").append(markCulprit(Html.esc(TraceFormatter.format(cx)))).append("</pre>\n");
            b.append("<p class=\"replay\">").append(Html.esc(ReplayLine.of(cx))).append("</p>\n");
        }
    }

    /**
     * What the SQL checks found, each as a finding is shown: the invariant, a swimlane, the steps as text and the line
     * that replays it. The relay under test's findings are open; those that caught a shipped broken variant (proof that
     * the check works on this database) are folded.
     */
    private static void sqlFindings(StringBuilder b, Report r) {
        if (r.sqlFindings().isEmpty()) {
            return;
        }
        String subject = r.checkers().stream().flatMap(c -> c.rows().stream()).filter(x -> x.check().startsWith("sql-")
                && x.expect().equals("PASS")).map(CheckerRows.Row::target).findFirst().orElse("");
        b.append("<h2 id=\"sql-findings\">SQL findings</h2>\n<p>What the SQL checks found in the relay on a real database: the "
                + "steps it took, with the rows and the consumer's tables read back around each where anyone could read them. "
                + "A crash-kill finding shows the killed relay's steps, the kill and the recovery; a race finding the steps "
                + "that touched the events it names. Paste the replay line to run it again.</p>\n");
        List<String> ids = new ArrayList<>();
        for (dev.relaycheck.jdbc.result.SqlFinding f : r.sqlFindings()) {
            boolean control = !f.target().equals(subject);
            String first = "sql-" + f.check() + "-" + f.target() + "-" + f.db();
            String id = ids.contains(first) ? first + "-" + ids.stream().filter(first::equals).count() : first; // a second cut point
            ids.add(first);
            String heading = Html.esc(f.target()) + " on " + Html.esc(f.db()) + ": " + Html.esc(f.title()) + " (" + f.check() + ")";
            if (control) {
                b.append("<details id=\"").append(Html.esc(id)).append("\"><summary>").append(heading)
                        .append(" <span class=\"muted\">shipped broken variant, caught</span></summary>\n");
            } else {
                b.append("<h3 id=\"").append(Html.esc(id)).append("\">").append(heading).append("</h3>\n");
            }
            b.append("<p class=\"muted\">").append(Html.esc(f.how())).append("</p>\n").append(Swimlane.html(f))
                    .append("<pre>").append(markCulprit(Html.esc(f.trace()))).append("</pre>\n<p class=\"replay\">")
                    .append(Html.esc(f.replay())).append("</p>\n");
            if (control) {
                b.append("</details>\n");
            }
        }
    }

    /** Highlights the trace line that carries the {@code <== INVARIANT} marker, so it shows even where the line wraps. */
    private static String markCulprit(String escaped) {
        return escaped.replaceAll("(?m)^(.*&lt;== [A-Z_]+)$", "<mark>$1</mark>");
    }
}
