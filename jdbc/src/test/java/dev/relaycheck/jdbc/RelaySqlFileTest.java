package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.adapter.NamedSql;
import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RelaySqlFileTest {
    static final String REFERENCE = RelaySqlFile.referenceText();

    @Test
    void namedParametersBecomePlaceholdersButNotInsideLiteralsCommentsOrCasts() {
        NamedSql sql = NamedSql.parse("UPDATE t SET a = :token, b = ':not' WHERE c = :event::text -- :nor\n AND d = :now");
        assertThat(sql.parameters()).containsExactly("token", "event", "now");
        assertThat(sql.jdbc()).isEqualTo("UPDATE t SET a = ?, b = ':not' WHERE c = ?::text \n AND d = ?");
    }

    @Test
    void referenceFileHasEveryStatementAndSplitsItsSchema() {
        RelaySqlFile f = RelaySqlFile.reference();
        assertThat(f.statements().keySet()).containsExactlyInAnyOrderElementsOf(RelaySqlFile.PARAMETERS.keySet());
        assertThat(f.statement("schema", Dialect.H2)).hasSize(4);
        assertThat(f.statement("ack", Dialect.POSTGRES).get(0).parameters()).containsExactly("event", "token");
    }

    @Test
    void aDatabasesOwnVersionWinsOverThePortableOne() {
        RelaySqlFile f = RelaySqlFile.parse(REFERENCE + "\n-- name: claim-token [postgres]\nSELECT last_token FROM fencing_token WHERE id = 1 FOR NO KEY UPDATE\n", "t");
        assertThat(f.statement("claim-token", Dialect.POSTGRES).get(0).jdbc()).endsWith("FOR NO KEY UPDATE");
        assertThat(f.statement("claim-token", Dialect.H2).get(0).jdbc()).endsWith("FOR UPDATE");
    }

    @Test
    void wallClockIsRefusedWithOneLine() {
        String clocked = REFERENCE.replace("o.lease_expiry <= :now)\n  AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.aggregate_id = o.aggregate_id AND e.status = 'PENDING' AND e.seq < o.seq)\nORDER BY",
                "o.lease_expiry <= EXTRACT(EPOCH FROM now()))\nORDER BY");
        assertThat(clocked).isNotEqualTo(REFERENCE);
        assertThatThrownBy(() -> RelaySqlFile.parse(clocked, "my.sql")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("my.sql: statement 'claim-select' reads the database's clock (now): relaycheck cannot check a "
                        + "wall-clock relay deterministically; take the time as :now (logical ticks)")
                .satisfies(e -> assertThat(e.getMessage().lines().count()).isEqualTo(1));
        assertThatThrownBy(() -> RelaySqlFile.parse(REFERENCE.replace("SET status = 'DELIVERED',", "SET status = 'DELIVERED', sent_at = CURRENT_TIMESTAMP,"), "x.sql"))
                .hasMessageContaining("statement 'ack' reads the database's clock (CURRENT_TIMESTAMP)");
    }

    @Test
    void badFilesAreRefusedWithWhatIsWrong() {
        assertThatThrownBy(() -> RelaySqlFile.parse(REFERENCE.replace("-- name: release\n", "-- name: relase\n"), "f"))
                .hasMessageStartingWith("f line ").hasMessageContaining("unknown statement 'relase'");
        assertThatThrownBy(() -> RelaySqlFile.parse(REFERENCE.replace("WHERE event_id = :event AND lease_token = :token AND status = 'PENDING'",
                "WHERE event_id = :event AND lease_token = :batch AND status = 'PENDING'"), "f"))
                .hasMessageContaining("uses :batch, which it is not given");
        int cut = REFERENCE.indexOf("-- name: snapshot-token");
        assertThatThrownBy(() -> RelaySqlFile.parse(REFERENCE.substring(0, cut), "f")).hasMessage(
                "f: statement 'snapshot-token' is missing (a relay file has " + String.join(", ", RelaySqlFile.PARAMETERS.keySet()) + ")");
        assertThatThrownBy(() -> RelaySqlFile.parse(REFERENCE + "\n-- name: ack [oracle]\nUPDATE x\n", "f"))
                .hasMessageContaining("unknown database [oracle]");
    }

    /** Every broken variant in the relay's SQL is a small edit of the reference file that still applies. */
    @ParameterizedTest
    @EnumSource(SqlVariant.class)
    void everyVariantIsTheReferenceFileWithItsEdits(SqlVariant v) {
        RelaySqlFile f = v.file(ClaimForm.SKIP_LOCKED);
        if (v.edits().isEmpty()) {
            assertThat(f).isEqualTo(RelaySqlFile.reference());
        } else {
            assertThat(f).isNotEqualTo(RelaySqlFile.reference());
            List<String> changed = RelaySqlFile.PARAMETERS.keySet().stream()
                    .filter(n -> !f.statements().get(n).equals(RelaySqlFile.reference().statements().get(n))).toList();
            assertThat(changed).isSubsetOf(v.edits().stream().map(SqlVariant.Edit::statement).toList());
        }
    }
}
