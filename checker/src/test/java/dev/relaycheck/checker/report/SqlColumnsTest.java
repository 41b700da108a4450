package dev.relaycheck.checker.report;

import dev.relaycheck.checker.check.FullCheck;
import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The SQL checks on each database get their own column of the kill matrix; N/A is not a failure. */
class SqlColumnsTest {

    static Report report(String postgresVerdict) {
        ModelCheck.Outcome model = new ModelCheck(new BreadthFirstSearch(1_000_000, 8, 1, Progress.NONE))
                .run(LogicCatalogue.correct(), List.of(ReferenceScenarios.staleAckAfterExpiry()));
        CheckerRows h2 = CheckerRows.of(FullCheck.sqlColumn("h2"), 0, List.of(
                new CheckerRows.Row("sql-conformance", "my-relay.sql", "PASS", "PASS", "96 schedules"),
                new CheckerRows.Row("sql-conformance", "ack-ignores-token", "CATCH", "CAUGHT", "STALE_ACK_REJECTED (h2)"),
                new CheckerRows.Row("sql-crash-kill", "h2-default-write-delay", "CATCH", "CAUGHT", "LOST COMMIT")), "h2", "");
        CheckerRows pg = CheckerRows.of(FullCheck.sqlColumn("postgres"), 0, List.of(
                new CheckerRows.Row("sql-conformance", "my-relay.sql", "PASS", postgresVerdict, "on postgres"),
                new CheckerRows.Row("sql-conformance", "ack-ignores-token", "CATCH", "CAUGHT", "STALE_ACK_REJECTED (pg)"),
                new CheckerRows.Row("sql-crash-kill", "h2-default-write-delay", "CATCH", "N/A", "no postgres counterpart")), "pg", "");
        return new Report(LogicCatalogue.correct(), model, List.of(ModelRows.of(model), h2, pg), List.of(), List.of());
    }

    @Test
    void eachDatabaseHasItsColumn() {
        Report r = report("PASS");
        assertThat(r.columns()).containsExactly("model", "jcstress", "lincheck", "sql", "sql-postgres");
        String md = SummaryMarkdown.render(r);
        assertThat(md).contains("| # | variant | model | jcstress | lincheck | sql | sql-postgres |")
                .contains("| `ack-ignores-token` | STALE_ACK_REJECTED | - | - | STALE_ACK_REJECTED | STALE_ACK_REJECTED |");
        assertThat(md.lines().filter(l -> l.contains("`h2-default-write-delay`")).findFirst().orElseThrow()).endsWith("| n/a |");
        assertThat(HtmlReport.render(r, List.of(), false)).contains("<th>sql-postgres</th>");
        // one scenario leaves some catalogue variants to other scenarios; nothing about SQL fails, N/A included
        assertThat(r.failures()).noneMatch(f -> f.startsWith("sql"));
    }

    @Test
    void theUsersRelayFailingOnOneDatabaseFailsTheReport() {
        Report r = report("FAILED");
        assertThat(r.failures()).anyMatch(f -> f.startsWith("sql-postgres sql-conformance on my-relay.sql: FAILED"));
    }
}
