package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.model.summary.SummaryRow;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SqlCheckResultTest {
    @Test
    void theConsoleSummaryPutsWhatFailedFirstAndKeepsTheRestSorted() {
        SqlCheckResult r = new SqlCheckResult("sql-conformance", List.of(
                SummaryRow.of("sql-conformance", "ack-ignores-token", false, "CAUGHT", "STALE_ACK_REJECTED"),
                SummaryRow.of("sql-conformance", "my-relay.sql", true, "FAILED", "STALE_ACK_REJECTED; replay: ./relaycheck sql replay"),
                SummaryRow.of("sql-conformance", "aaa-escaped", false, "ESCAPED", "not caught"),
                SummaryRow.of("sql-conformance", "claim-ignores-lease", false, "CAUGHT", "SINGLE_LIVE_LEASE")), 4, "");
        List<String> lines = r.summary().lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).isEqualTo("sql-conformance: FAIL (4 runs)");
        assertThat(lines.subList(1, 5)).extracting(l -> l.trim().split("\\s+")[0])
                .containsExactly("aaa-escaped", "my-relay.sql", "ack-ignores-token", "claim-ignores-lease");
        assertThat(r.rows()).extracting(SummaryRow::target) // the report files keep one sorted order
                .containsExactly("aaa-escaped", "ack-ignores-token", "claim-ignores-lease", "my-relay.sql");
    }
}
