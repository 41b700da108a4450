package dev.relaycheck.checker.report;

import dev.relaycheck.checker.BreadthFirstSearch;
import dev.relaycheck.checker.ModelCheck;
import dev.relaycheck.checker.Progress;
import dev.relaycheck.model.LogicCatalogue;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
                ReferenceScenarios.aggregateOrder(), ReferenceScenarios.producerAtomicity(), ReferenceScenarios.crashRestart());
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

    @Test
    void sameInputsGiveTheSameBytesApartFromTimings() {
        String a = HtmlReport.render(report(), List.of(), false).replaceAll("\\d+\\.\\d+ s, [\\d,]+ states/s", "T");
        String b = HtmlReport.render(report(), List.of(), false).replaceAll("\\d+\\.\\d+ s, [\\d,]+ states/s", "T");
        assertThat(b).isEqualTo(a);
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

    @Test
    void pageRendersInHeadlessChromiumWithVerdictMatrixAndSwimlanes() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        if (System.getenv("CI") == null) {
            assumeTrue(Files.isExecutable(chromium), "chromium not installed (.ci/run installs it)");
        }
        Path page = dir.resolve("index.html");
        Files.writeString(page, HtmlReport.render(report(), List.of(), false), StandardCharsets.UTF_8);
        Path dom = dir.resolve("dom.html");
        Path log = dir.resolve("chromium.log");
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile"), "--enable-logging=stderr", "--v=0", "--dump-dom",
                page.toUri().toString()).redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(p.exitValue()).as("chromium exit code; log:\n%s", Files.readString(log)).isZero();
        String rendered = Files.readString(dom);
        assertThat(rendered).contains("id=\"verdict\"").contains(">PASS<").contains("id=\"matrix\"")
                .contains("release-ignores-token").contains("<svg class=\"swimlane\"").contains("</html>");
        assertThat(Files.readString(log)).doesNotContain("Uncaught").doesNotContain("Failed to load resource");
        assertThat(rendered).doesNotContain("<script src").doesNotContain("<link ");
    }

    private static void golden(String name, String actual) throws IOException {
        Path file = Path.of("src/test/resources/golden", name);
        if (UPDATE || !Files.exists(file)) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    }
}
