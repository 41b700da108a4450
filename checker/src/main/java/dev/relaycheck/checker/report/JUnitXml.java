package dev.relaycheck.checker.report;

import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.replay.ReplayLine;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.checker.trace.TraceFormatter;
import dev.relaycheck.jdbc.result.SqlFinding;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A check's results as JUnit XML (the Ant/Surefire format Jenkins, GitLab and GitHub read): test cases for each
 * record of the regression corpus replayed first, each scenario the logic under test was searched on, each catalogue
 * variant (caught, escaped, or not covered by the checkers run: skipped) and each checker column. A failure carries
 * the finding's first lines and its replay line. No times: a report's bytes depend on the run's findings alone.
 */
public final class JUnitXml {
    /** The file beside the report, named as Surefire names its reports, so a CI's glob for TEST-*.xml finds it. */
    public static final String FILE = "TEST-relaycheck.xml";
    private static final List<String> SUITES = List.of("corpus", "scenarios", "variants", "checkers");

    /** Lines of a trace a failure keeps (the full trace is in the report). */
    static final int TRACE_LINES = 12;

    private JUnitXml() {
    }

    /** One test case: passed (no failure, not skipped), failed with a message and text, or skipped with a reason. */
    public record Case(String suite, String name, String failure, String text, String skipped) {
        /** A corpus record replayed: passed when its failure no longer reproduces. */
        public static Case corpus(String record, boolean cameBack, String verdict, String replayReport, String replayLine) {
            List<String> lines = replayReport.lines().toList();
            String text = String.join("\n", lines.subList(0, Math.min(TRACE_LINES, lines.size()))) + "\nreplay: " + replayLine;
            return new Case("corpus", record, cameBack ? "a recorded failure came back: " + verdict : null, cameBack ? text : null, null);
        }
    }

    /** Only the corpus: a run that stopped when a recorded failure came back. */
    public static String render(List<Case> corpus) {
        return xml(corpus);
    }

    public static String render(Report r, List<Case> corpus) {
        List<Case> cases = new ArrayList<>(corpus);
        String subject = r.subject().id();
        for (SearchResult s : r.model().subject()) {
            String name = subject + " on " + s.scenario().name();
            if (s.passed()) {
                cases.add(new Case("scenarios", name, null, null, null));
            } else {
                String text = s.counterexamples().isEmpty() ? s.summary()
                        : String.join("\n", s.counterexamples().stream().map(JUnitXml::explain).toList());
                cases.add(new Case("scenarios", name, s.verdictLine(), text, null));
            }
        }
        for (String target : r.targets()) {
            cases.add(variant(r, target));
        }
        for (CheckerRows c : r.checkers()) {
            cases.add(checker(r, c));
        }
        return xml(cases);
    }

    private static Case variant(Report r, String target) {
        if (!r.covered(target)) {
            return new Case("variants", target, null, null, "no checker of this run covers it");
        }
        if (r.caughtSomewhere(target)) {
            return new Case("variants", target, null, null, null);
        }
        Optional<ModelCheck.VariantRow> row = r.model().variants().stream().filter(v -> v.variant().id().equals(target)).findFirst();
        String text = row.map(v -> v.results().stream().map(s -> s.scenario().name() + ": " + s.verdictLine()).toList())
                .map(l -> String.join("\n", l)).orElse("");
        return new Case("variants", target, "catalogue variant " + target + " escaped every checker", text, null);
    }

    private static Case checker(Report r, CheckerRows c) {
        if (c.skipped()) {
            return new Case("checkers", c.checker(), null, null, c.note());
        }
        List<String> wrong = new ArrayList<>();
        for (CheckerRows.Row row : c.rows()) {
            boolean subjectFailed = row.expect().equals("PASS") && !row.verdict().equals("PASS");
            boolean controlEscaped = row.expect().equals("CATCH") && row.failed();
            if (subjectFailed || controlEscaped) {
                wrong.add(row.check() + " " + row.target() + ": " + row.verdict() + " " + row.detail());
            }
        }
        if (wrong.isEmpty() && !c.status().equals("FAIL")) {
            return new Case("checkers", c.checker(), null, null, null);
        }
        StringBuilder text = new StringBuilder(String.join("\n", wrong));
        String db = c.checker().startsWith("sql-") ? c.checker().substring(4) : "h2";
        for (SqlFinding f : r.sqlFindings()) {
            if (c.checker().startsWith("sql") && f.db().equals(db)) {
                text.append("\n").append(f.title()).append(" (").append(f.target()).append("): ").append(f.detail())
                        .append("\nreplay: ").append(f.replay());
            }
        }
        String message = wrong.isEmpty() ? c.checker() + " did not complete: " + c.note() : wrong.get(0);
        return new Case("checkers", c.checker(), message, text.toString().strip(), null);
    }

    private static String explain(Counterexample cx) {
        List<String> lines = TraceFormatter.format(cx).lines().toList();
        String head = String.join("\n", lines.subList(0, Math.min(TRACE_LINES, lines.size())));
        return head + (lines.size() > TRACE_LINES ? "\n  ... (" + (lines.size() - TRACE_LINES) + " more lines in the report)" : "")
                + "\nreplay: " + ReplayLine.of(cx);
    }

    private static String xml(List<Case> cases) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        long failures = cases.stream().filter(c -> c.failure() != null).count();
        long skipped = cases.stream().filter(c -> c.skipped() != null).count();
        b.append("<testsuites name=\"relaycheck check\" tests=\"").append(cases.size()).append("\" failures=\"").append(failures)
                .append("\" errors=\"0\" skipped=\"").append(skipped).append("\">\n");
        for (String suite : SUITES) {
            List<Case> in = cases.stream().filter(c -> c.suite().equals(suite)).toList();
            if (in.isEmpty()) {
                continue;
            }
            b.append("  <testsuite name=\"relaycheck.").append(suite).append("\" tests=\"").append(in.size())
                    .append("\" failures=\"").append(in.stream().filter(c -> c.failure() != null).count())
                    .append("\" errors=\"0\" skipped=\"").append(in.stream().filter(c -> c.skipped() != null).count()).append("\">\n");
            for (Case c : in) {
                b.append("    <testcase classname=\"relaycheck.").append(suite).append("\" name=\"").append(escape(c.name())).append('"');
                if (c.failure() == null && c.skipped() == null) {
                    b.append("/>\n");
                    continue;
                }
                b.append(">\n");
                if (c.failure() != null) {
                    b.append("      <failure message=\"").append(escape(c.failure())).append("\">").append(escape(c.text()))
                            .append("</failure>\n");
                } else {
                    b.append("      <skipped message=\"").append(escape(c.skipped())).append("\"/>\n");
                }
                b.append("    </testcase>\n");
            }
            b.append("  </testsuite>\n");
        }
        return b.append("</testsuites>\n").toString();
    }

    /** Text for an XML attribute or element: the five entities, and characters XML 1.0 cannot hold left out. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (cp == '\n' || cp == '\t' || cp == '\r' || (cp >= 0x20 && cp != 0xFFFE && cp != 0xFFFF)) {
                        b.appendCodePoint(cp);
                    }
                }
            }
        });
        return b.toString();
    }
}
