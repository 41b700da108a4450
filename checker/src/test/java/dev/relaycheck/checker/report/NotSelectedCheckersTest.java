package dev.relaycheck.checker.report;

import dev.relaycheck.checker.check.FullCheck;
import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run that left checkers out ({@code check --only sql}): what it did not run it does not judge, and its report
 * says "not run" where the model's results would be; what it did run is judged as in a full run (a selected
 * checker's escaped control, or the relay under test failing, still fails it).
 */
class NotSelectedCheckersTest {
    private static final ModelCheck.Outcome NO_MODEL = new ModelCheck.Outcome(List.of(), List.of());
    private static final String CORRECT_PASSES = "sql-conformance\tcorrect\tPASS\tPASS\tno divergence";

    /** The report of {@code check --only sql} whose SQL column has these rows (model, jcstress, Lincheck not selected). */
    private static Report onlySql(CheckerRows.Row... sqlRows) {
        List<CheckerRows.Row> rows = new ArrayList<>(List.of(row(CORRECT_PASSES)));
        rows.addAll(List.of(sqlRows));
        return new Report(LogicCatalogue.correct(), NO_MODEL, List.of(CheckerRows.skipped("model", FullCheck.NOT_SELECTED),
                CheckerRows.skipped("jcstress", FullCheck.NOT_SELECTED), CheckerRows.skipped("lincheck", FullCheck.NOT_SELECTED),
                CheckerRows.of("sql", 0, rows, "reference relay on H2", "")), List.of(), List.of(FullCheck.MODEL_NOT_SELECTED));
    }

    private static CheckerRows.Row row(String tsv) {
        String[] f = tsv.split("\t", -1);
        return new CheckerRows.Row(f[0], f[1], f[2], f[3], f[4]);
    }

    @Test
    void variantsThatOnlyTheLeftOutModelCoversAreNotJudged() {
        // without controls (--controls no) no selected checker tries any catalogue variant: nothing escaped
        Report r = onlySql();
        assertThat(r.failures()).isEmpty();
        assertThat(r.verdict()).isEqualTo(Verdict.CLEAN);
        assertThat(r.ran("model")).isFalse();
        assertThat(r.ran("sql")).isTrue();
        assertThat(LogicCatalogue.variants()).noneMatch(v -> r.covered(v.id()));
        // with a control caught, that variant is judged, the others still are not
        Report withControl = onlySql(row("sql-conformance\tack-ignores-token\tCATCH\tCAUGHT\tSTALE_ACK_REJECTED (scenario x)"));
        assertThat(withControl.passed()).isTrue();
        assertThat(withControl.covered("ack-ignores-token")).isTrue();
        assertThat(withControl.covered("claim-ignores-lease")).isFalse();
    }

    @Test
    void aSelectedCheckersControlThatEscapesStillFailsTheRun() {
        Report r = onlySql(row("sql-race\tclaim-ignores-lease\tCATCH\tESCAPED\tnot caught in 5 races"));
        assertThat(r.failures()).containsExactly("catalogue variant claim-ignores-lease escaped every checker");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATION);
    }

    @Test
    void theRelayUnderTestFailingStillFailsTheRunNamingTheInvariant() {
        Report r = new Report(LogicCatalogue.correct(), NO_MODEL, List.of(CheckerRows.skipped("model", FullCheck.NOT_SELECTED),
                CheckerRows.of("sql", 1, List.of(row("sql-conformance\tcorrect\tPASS\tFAILED\tSTALE_ACK_REJECTED at step 9")), "", "")),
                List.of(), List.of());
        assertThat(r.failures()).containsExactly("sql sql-conformance on correct: FAILED STALE_ACK_REJECTED at step 9");
        assertThat(r.verdict()).isEqualTo(Verdict.VIOLATION);
    }

    @Test
    void aControlLeftOpenByATimeLimitIsIncompleteNeverAnEscape() {
        Report r = onlySql(row("sql-crash-kill\tmarker-before-effect\tCATCH\tINCONCLUSIVE\tthe child ran past its limit twice"));
        assertThat(r.failures()).containsExactly("catalogue variant marker-before-effect was caught by no checker, and a time "
                + "limit left a run of it inconclusive");
        assertThat(r.verdict()).isEqualTo(Verdict.INCOMPLETE);
        // a control with no counterpart on the database (N/A) is not a try at all
        Report na = onlySql(row("sql-conformance\tapp-clock-expiry\tCATCH\tN/A\tno app clock on PostgreSQL"));
        assertThat(na.failures()).isEmpty();
    }

    @Test
    void theReportSaysTheModelWasNotSelectedAndShowsNoModelResults() {
        Report r = onlySql(row("sql-conformance\tack-ignores-token\tCATCH\tCAUGHT\tSTALE_ACK_REJECTED (scenario x)"));
        String md = SummaryMarkdown.render(r, Path.of("results"), Optional.empty());
        assertThat(md).startsWith("## relaycheck: PASS for the reference logic `correct`").contains("Model: not selected, no search ran.")
                .contains("model SKIPPED").contains("> " + FullCheck.MODEL_NOT_SELECTED)
                .contains("| 1 | `ack-ignores-token` | not run | not run | not run | STALE_ACK_REJECTED |")
                .contains("| 2 | `reclaim-keeps-token` | not run | not run | not run | - |");
        String html = HtmlReport.render(r, ReportLinks.NONE, Optional.empty());
        assertThat(html).contains("<p class=\"muted\" id=\"scenarios\">The model checker was not selected (--only)")
                .doesNotContain("<table id=\"scenarios\"").doesNotContain("<h3 id=\"cx-")
                .contains("<td class=\"na\">not run</td>");
        String json = SummaryJson.render(r, 0);
        assertThat(json).contains("\"scenarios\": [],").contains("\"counterexamples\": [],")
                .containsPattern("\"name\": \"model\",\\s+\"status\": \"SKIPPED\",\\s+\"note\": \"not selected\",\\s+\"rows\": \\[]");
    }

    @Test
    void comparedWithARunThatHadTheModelItsResultsAreNotRunNeverWorse() {
        RunSummary full = RunSummary.read(Path.of("src/test/resources/diff/before.json"), "before.json");
        assertThat(full.scenarios()).isNotEmpty();
        assertThat(full.counterexamples()).isNotEmpty();
        RunSummary withFailure = new RunSummary(full.source(), "FAIL", full.logic(),
                List.of("catalogue variant release-ignores-token escaped every checker"), full.scenarios(), full.rows(),
                full.counterexamples());
        RunSummary onlySql = RunSummary.of(onlySql(row("sql-conformance\tack-ignores-token\tCATCH\tCAUGHT\tSTALE_ACK_REJECTED")),
                0, "only-sql");
        for (RunSummary before : List.of(full, withFailure)) {
            RunDiff d = RunDiff.of(before, onlySql);
            assertThat(d.of(RunDiff.Kind.WORSE)).as(d.text()).isEmpty();
            assertThat(d.goneCounterexamples()).as("not run is not gone").isEmpty();
            assertThat(d.items()).extracting(RunDiff.Item::text).anyMatch(t -> t.startsWith("model: not run in this run ("))
                    .noneMatch(t -> t.startsWith("scenario ")).noneMatch(t -> t.startsWith("no longer: "));
        }
        assertThat(RunDiff.of(withFailure, onlySql).items()).extracting(RunDiff.Item::text).contains(
                "variant release-ignores-token: not run in this run (was: catalogue variant release-ignores-token escaped every checker)");
        // the other way round the model's results are new, and nothing of them is worse or better
        RunDiff back = RunDiff.of(onlySql, full);
        assertThat(back.items()).extracting(RunDiff.Item::text).anyMatch(t -> t.startsWith("model: not run before, "));
    }
}
