package dev.relaycheck.checker.report;

import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The report's text parts are pinned by golden files; the page is rendered in headless Chromium. */
class ReportTest {

    /** Set -Dgolden.update=true to rewrite the golden files after an intended change (then review the diff). */
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");

    @TempDir
    Path dir;

    static Report report() {
        List<Scenario> scenarios = List.of(ReferenceScenarios.event61LostAck(), ReferenceScenarios.staleAckAfterExpiry(),
                ReferenceScenarios.aggregateOrder(), ReferenceScenarios.producerAtomicity(), ReferenceScenarios.crashRestart(),
                // the renewal, skew and commit-visibility variants and the cleanup's are caught only in their own scenarios
                ReferenceScenarios.leaseRenewal(), ReferenceScenarios.clockSkew(), ReferenceScenarios.commitVisibility(),
                ReferenceScenarios.outboxCleanup());
        ModelCheck.Outcome model = new ModelCheck(new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE))
                .run(LogicCatalogue.correct(), scenarios);
        return new Report(LogicCatalogue.correct(), model, List.of(ModelRows.of(model),
                CheckerRows.skipped("jcstress", "not selected"), CheckerRows.skipped("lincheck", "not selected"),
                CheckerRows.skipped("sql", "not selected")), List.of(), List.of());
    }

    @Test
    void summaryMarkdownMatchesItsGoldenFile() throws IOException {
        golden("summary.md", SummaryMarkdown.render(report()));
    }

    @Test
    void summaryJsonMatchesItsGoldenFileApartFromTimings() throws IOException {
        String json = SummaryJson.render(report(), 0).replaceAll("\"seconds\": [0-9.]+", "\"seconds\": 0");
        assertThat(json).startsWith("{\n  \"schema\": \"relaycheck-summary/2\",\n  \"verdict\": \"PASS\",\n"
                + "  \"outcome\": \"CLEAN\",\n  \"exit\": 0,\n");
        golden("summary.json", json);
    }

    /**
     * Two runs of the same inputs: the model search is run twice for real (its timings differ) and the jcstress
     * results differ in their counts, as two real jcstress runs do. The deterministic part of summary.json is the
     * same bytes; the sampled part is where the differences went; the page differs only in marked timings and
     * sampled counts.
     */
    @Test
    void twoRunsOfTheSameInputsGiveByteIdenticalDeterministicParts() throws IOException {
        Report a = withJcstress(report(), "2113");
        Report b = withJcstress(report(), "1877");
        assertThat(SummaryJson.render(b, 0)).isNotEqualTo(SummaryJson.render(a, 0));
        assertThat(SummaryJson.deterministic(b)).isEqualTo(SummaryJson.deterministic(a))
                .doesNotContain("seconds").doesNotContain("2113").contains("\"scenarios\"");
        assertThat(SummaryJson.render(a, 0)).contains("\"sampled\": {").contains("\"count\": 2113");
        String pageA = HtmlReport.render(a, ReportLinks.NONE, Optional.empty());
        String pageB = HtmlReport.render(b, ReportLinks.NONE, Optional.empty());
        assertThat(withoutSampled(pageB)).isEqualTo(withoutSampled(pageA));
        assertThat(pageA).contains("jcstress outcomes <span class=\"badge\">sampled</span>");
    }

    private static String withoutSampled(String page) {
        return page.replaceAll("<span class=\"t\"[^>]*>[^<]*</span>", "T")
                .replaceAll("(?s)<details class=\"histogram\">.*?</details>", "H")
                .replaceAll("seen [\\d,]+ times", "seen N times");
    }

    /** The report with jcstress results as a real run writes them (summary.tsv and outcomes.tsv), with these counts. */
    private Report withJcstress(Report base, String count) throws IOException {
        Path tsv = Files.writeString(dir.resolve("summary-" + count + ".tsv"), "check\ttarget\texpect\tverdict\tdetail\n"
                + "Lease_01_DoubleClaim\tclaim-ignores-lease\tCATCH\tCAUGHT\tforbidden [1, 1] seen " + count + " times\n"
                + "Lease_01_DoubleClaim\tcorrect\tPASS\tPASS\tno forbidden outcome\n");
        Path outcomes = Files.writeString(dir.resolve("outcomes-" + count + ".tsv"), "test\toutcome\tcount\tgrade\tdescription\n"
                + "Lease_01_DoubleClaim.ClaimIgnoresLease\t1, 1\t" + count + "\tFORBIDDEN\tboth pollers won\n"
                + "Lease_01_DoubleClaim.Correct\t1, 0\t" + count + "\tACCEPTABLE\tp1 won\n"
                + "Lease_01_DoubleClaim.Correct\t\\d, \\d, [01], .*\t0\tFORBIDDEN\tanything else\n");
        List<CheckerRows> checkers = new ArrayList<>(base.checkers());
        checkers.set(1, CheckerRows.read("jcstress", tsv, 0, "curriculum in mode quick", "jcstress/index.html"));
        return new Report(base.subject(), base.model(), checkers, JcstressOutcomes.read(outcomes), base.notes());
    }

    /** The titles name what was checked: the team's logic, its SQL relay, or both; the reference logic only as that. */
    @Test
    void theTitleNamesWhatWasChecked() {
        Report base = report();
        SqlRelayUnderTest relay = new SqlRelayUnderTest("com.acme.MyRelay", List.of(), List.of(), "invariants checked: all");
        Report reference = new Report(base.subject(), base.model(), base.checkers(), List.of(), List.of(), Optional.of(relay));
        assertThat(reference.about(id -> "`" + id + "`")).isEqualTo("the SQL relay `com.acme.MyRelay`");
        assertThat(base.about()).isEqualTo("the reference logic correct");
        RelayLogic mine = new dev.relaycheck.model.CorrectRelayLogic() {
            @Override
            public String id() {
                return "acme-relay";
            }
        };
        Report both = new Report(mine, base.model(), base.checkers(), List.of(), List.of(), Optional.of(relay));
        assertThat(both.about()).isEqualTo("acme-relay and the SQL relay com.acme.MyRelay");
        assertThat(HtmlReport.render(both, List.of(), false)).contains("<title>relaycheck: ")
                .contains(" for acme-relay and the SQL relay com.acme.MyRelay</title>").contains("Logic under test: <code>acme-relay</code>");
        assertThat(HtmlReport.render(reference, List.of(), false)).contains(" for the SQL relay com.acme.MyRelay</title>")
                .contains("Logic: relaycheck's reference logic <code>correct</code> (no --logic given): ")
                .doesNotContain("Logic under test");
    }

    /**
     * A logic that breaks two invariants in one scenario: every page names both, each with its own trace and replay
     * line (the console's explore and check print them the same way, through one formatter).
     */
    @Test
    void everyInvariantTheLogicBrokeIsOnEveryPage() {
        RelayLogic twoMistakes = new dev.relaycheck.model.testsupport.TwoMistakesLogic();
        List<Scenario> scenarios = List.of(ReferenceScenarios.mixed());
        ModelCheck.Outcome model = new ModelCheck(new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE)).run(twoMistakes, scenarios);
        Report r = new Report(twoMistakes, model, List.of(ModelRows.of(model)), List.of(), List.of());
        assertThat(model.subject().get(0).verdictLine()).isEqualTo("VIOLATION AGGREGATE_ORDER, STALE_ACK_REJECTED");
        String md = SummaryMarkdown.render(r);
        assertThat(md).contains("Replay them:");
        assertThat(md.lines().filter(l -> l.startsWith("./relaycheck replay rc1:"))).hasSize(2);
        String json = SummaryJson.render(r, 0);
        assertThat(json).contains("\"violated\": [\"AGGREGATE_ORDER\", \"STALE_ACK_REJECTED\"]")
                .contains("\"invariant\": \"AGGREGATE_ORDER\"").contains("\"invariant\": \"STALE_ACK_REJECTED\"");
        String html = HtmlReport.render(r, List.of(), false);
        assertThat(html).contains("<h3 id=\"cx-two-mistakes-mixed-AGGREGATE_ORDER\">two-mistakes: AGGREGATE_ORDER on mixed</h3>")
                .contains("<h3 id=\"cx-two-mistakes-mixed-STALE_ACK_REJECTED\">two-mistakes: STALE_ACK_REJECTED on mixed</h3>");
        assertThat(JUnitXml.render(r, List.of())).contains("VIOLATION AGGREGATE_ORDER in scenario mixed with logic two-mistakes")
                .contains("VIOLATION STALE_ACK_REJECTED in scenario mixed with logic two-mistakes");
    }

    @Test
    void jcstressOutcomesDeclaredAsPatternsReadAsWords() {
        assertThat(HtmlReport.readableOutcome("\\d, \\d, 2, 0, \\d")).isEqualTo("*, *, 2, 0, *");
        assertThat(HtmlReport.readableOutcome("[01], -?\\d+, 1, .*")).isEqualTo("0|1, *, 1, ...");
        assertThat(HtmlReport.readableOutcome("1, 0, 2")).isEqualTo("1, 0, 2");
    }

    @Test
    void eachFailureIsListedOnce() {
        List<String> failures = failingReport().failures();
        assertThat(failures).isNotEmpty().doesNotHaveDuplicates()
                .noneMatch(f -> f.startsWith("model bfs")).allMatch(f -> f.startsWith("ack-ignores-token on "));
    }

    @Test
    void aVariantThatEscapesEveryCheckerFailsTheVerdict() {
        Report full = report();
        ModelCheck.Outcome model = full.model();
        List<ModelCheck.VariantRow> fewer = model.variants().stream()
                .map(v -> v.variant().id().equals("release-ignores-token")
                        ? new ModelCheck.VariantRow(v.variant(), List.of()) : v).toList();
        ModelCheck.Outcome weaker = new ModelCheck.Outcome(model.subject(), fewer);
        Report r = new Report(full.subject(), weaker, List.of(ModelRows.of(weaker)), List.of(), List.of());
        assertThat(r.passed()).isFalse();
        assertThat(r.failures()).contains("catalogue variant release-ignores-token escaped every checker");
        assertThat(SummaryMarkdown.render(r)).startsWith("## relaycheck: FAIL");
    }

    @Test
    void externalCheckerVerdictsDecideTheReport() throws IOException {
        Report base = report();
        Path tsv = dir.resolve("summary.tsv");
        Files.writeString(tsv, "check\ttarget\texpect\tverdict\tdetail\n"
                + "Lease_01_DoubleClaim\tcorrect\tPASS\tFAILED\tforbidden [1, 1]: both pollers won (SINGLE_LIVE_LEASE)\n"
                + "Lease_01_DoubleClaim\tclaim-ignores-lease\tCATCH\tESCAPED\tno forbidden outcome\n");
        CheckerRows jcstress = CheckerRows.read("jcstress", tsv, 1, "quick", "");
        assertThat(jcstress.status()).isEqualTo("FAIL");
        Report r = new Report(base.subject(), base.model(), List.of(base.checkers().get(0), jcstress), List.of(), List.of());
        // the correct logic failing in one checker fails the whole report; an escape caught elsewhere does not
        assertThat(r.failures()).containsExactly(
                "jcstress Lease_01_DoubleClaim on correct: FAILED forbidden [1, 1]: both pollers won (SINGLE_LIVE_LEASE)");
        assertThat(SummaryMarkdown.cellText(r.cell("jcstress", "claim-ignores-lease"))).isEqualTo("escaped");

        CheckerRows missing = CheckerRows.read("lincheck", dir.resolve("absent.tsv"), 0, "small budget", "");
        Report crashed = new Report(base.subject(), base.model(), List.of(base.checkers().get(0), missing), List.of(), List.of());
        assertThat(crashed.passed()).isFalse();
        assertThat(crashed.failures()).singleElement().asString().startsWith("lincheck did not complete");
    }

    /**
     * The page as a reviewer reads it: a failing logic under test compared with a passing baseline, jcstress
     * outcomes declared as patterns, 28 Lincheck traces, rendered in headless Chromium at 1400 and 900 px. No
     * element outside a code block may stick out of the page (no sideways scrolling) and no swimlane label may
     * be cut or stick out of its cell. A script measures the layout; it is added to a copy of the page only, the
     * report itself carries none.
     */
    @Test
    void pageReadsInHeadlessChromiumAt1400And900PixelsWithoutOverflowOrClippedLabels() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        if (System.getenv("CI") == null) {
            assumeTrue(Files.isExecutable(chromium), "chromium not installed (.ci/run installs it)");
        }
        Report failing = everyCheckerCatchesEveryVariant(withJcstress(failingReport(), "2113"));
        RunDiff baseline = RunDiff.of(RunSummary.of(report(), 0, "results-before"), RunSummary.of(failing, 1, "results"));
        List<String> lincheck = new ArrayList<>();
        for (int i = 0; i < 28; i++) {
            lincheck.add("lincheck/linearizability-model-checking.variant-" + i + ".txt");
        }
        String html = HtmlReport.render(failing, new ReportLinks(true, lincheck,
                List.of("sql/sql-conformance.txt", "sql/sql-crash-kill.txt", "sql/sql-race.txt")), Optional.of(baseline));
        assertThat(html).doesNotContain("<script").doesNotContain("<link ").doesNotContain("@import");
        String probe = Files.readString(Path.of("src/test/resources/layout/layout-check.js"), StandardCharsets.UTF_8);
        Path page = dir.resolve("index.html");
        Files.writeString(page, html.replace("</body>", "<script>" + probe + "</script></body>"), StandardCharsets.UTF_8);
        for (int width : new int[] {1400, 900}) {
            String rendered = dumpDom(chromium, page, width);
            assertThat(rendered).contains("id=\"verdict\"").contains(">FAIL<").contains("id=\"matrix\"").contains("id=\"baseline\"")
                    .contains("Before/after: WORSE").contains("<table class=\"swimlane\"").contains("</html>");
            int at = rendered.lastIndexOf("<pre id=\"layout-check\">");
            assertThat(at).as("the layout probe ran").isPositive();
            String verdict = rendered.substring(at + "<pre id=\"layout-check\">".length(), rendered.indexOf("</pre>", at));
            assertThat(verdict).as("layout at %d px", width).matches("(?s)labels [1-9]\\d*\nOK");
        }
        // the probe's negative control: a page that scrolls sideways and labels that do not wrap are reported
        Path broken = dir.resolve("broken.html");
        Files.writeString(broken, html.replace("</style>", ".swimlane .lbl{white-space:nowrap;overflow:hidden}</style>")
                .replace("</body>", "<div style=\"width:1300px\">wide</div><script>" + probe + "</script></body>"), StandardCharsets.UTF_8);
        String rendered = dumpDom(chromium, broken, 900);
        assertThat(rendered).contains("page scrolls sideways").contains("clipped: span.lbl");
    }

    /** How long Chromium may take to render a page; a second try gets twice as long. */
    private static final long CHROMIUM_SECONDS = 120;

    /**
     * Renders the page; a Chromium that does not finish in time is tried once more with twice the limit, then
     * the test is aborted as inconclusive (a loaded machine is no finding about the page), never failed.
     */
    private String dumpDom(Path chromium, Path page, int width) throws Exception {
        Path dom = dir.resolve("dom-" + width + ".html");
        Path log = dir.resolve("chromium-" + width + ".log");
        Process p = null;
        for (long limit = CHROMIUM_SECONDS; p == null; limit *= 2) {
            Process tried = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--user-data-dir=" + dir.resolve("profile-" + width), "--enable-logging=stderr", "--v=0",
                    "--window-size=" + width + ",3000", "--dump-dom", page.toUri().toString())
                    .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
            if (tried.waitFor(limit, TimeUnit.SECONDS)) {
                p = tried;
            } else {
                tried.descendants().forEach(ProcessHandle::destroyForcibly);
                tried.destroyForcibly();
                tried.waitFor();
                if (limit > CHROMIUM_SECONDS) {
                    org.junit.jupiter.api.Assumptions.abort("inconclusive: chromium did not render " + page.getFileName()
                            + " within " + CHROMIUM_SECONDS + " s nor " + limit + " s");
                }
            }
        }
        assertThat(p.exitValue()).as("chromium exit code; log:\n%s", Files.readString(log)).isZero();
        assertThat(Files.readString(log)).doesNotContain("Uncaught").doesNotContain("Failed to load resource");
        return Files.readString(dom);
    }

    /** The widest kill matrix: every checker names the longest invariant for every variant. */
    private static Report everyCheckerCatchesEveryVariant(Report base) {
        List<CheckerRows> checkers = new ArrayList<>(List.of(base.checkers().get(0)));
        for (String checker : List.of("jcstress", "lincheck", "sql")) {
            List<CheckerRows.Row> rows = new ArrayList<>(checker.equals("jcstress") ? base.checkers().get(1).rows() : List.of());
            LogicCatalogue.variants().forEach(v -> rows.add(new CheckerRows.Row(checker + "-check", v.id(), "CATCH", "CAUGHT",
                    "forbidden outcome seen (EFFECT_AT_MOST_ONCE)")));
            checkers.add(CheckerRows.of(checker, 0, rows, "every check", ""));
        }
        return new Report(base.subject(), base.model(), checkers, base.histograms(), base.notes());
    }

    /** A logic under test that breaks (the ack that ignores its token), so the page has failures and swimlanes of its own. */
    static Report failingReport() {
        List<Scenario> scenarios = List.of(ReferenceScenarios.event61LostAck(), ReferenceScenarios.staleAckAfterExpiry(),
                ReferenceScenarios.aggregateOrder(), ReferenceScenarios.producerAtomicity(), ReferenceScenarios.crashRestart(),
                // the renewal, skew and commit-visibility variants and the cleanup's are caught only in their own scenarios
                ReferenceScenarios.leaseRenewal(), ReferenceScenarios.clockSkew(), ReferenceScenarios.commitVisibility(),
                ReferenceScenarios.outboxCleanup());
        ModelCheck.Outcome model = new ModelCheck(new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE))
                .run(LogicCatalogue.byId("ack-ignores-token").orElseThrow(), scenarios);
        return new Report(model.subject().get(0).logic(), model, List.of(ModelRows.of(model),
                CheckerRows.skipped("jcstress", "not selected"), CheckerRows.skipped("lincheck", "not selected"),
                CheckerRows.skipped("sql", "not selected")), List.of(), List.of());
    }

    static void golden(String name, String actual) throws IOException {
        Path file = Path.of("src/test/resources/golden", name);
        if (UPDATE || !Files.exists(file)) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }
}
