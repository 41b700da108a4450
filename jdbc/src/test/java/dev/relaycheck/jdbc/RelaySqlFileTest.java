package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.adapter.NamedSql;
import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import dev.relaycheck.jdbc.db.Dialect;
import dev.relaycheck.jdbc.relay.ClaimForm;
import dev.relaycheck.jdbc.relay.SqlVariant;
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
                "f: statement 'snapshot-token' is missing (this relay file has " + String.join(", ",
                        RelaySqlFile.PARAMETERS.keySet().stream().filter(n -> !RelaySqlFile.OPTIONAL.contains(n)).toList()) + ", and optionally renew, cleanup)");
        assertThatThrownBy(() -> RelaySqlFile.parse(REFERENCE + "\n-- name: ack [oracle]\nUPDATE x\n", "f"))
                .hasMessageContaining("unknown database [oracle]");
    }

    @Test
    void optionsDeclareWhatAnAdapterDeclares() {
        RelaySqlFile unordered = RelaySqlFile.parse("-- option: does-not-promise-aggregate-order\n" + REFERENCE, "f");
        assertThat(unordered.promisedInvariants()).doesNotContain(dev.relaycheck.model.Invariant.AGGREGATE_ORDER).hasSize(7);
        assertThat(RelaySqlFile.reference().promisedInvariants()).hasSize(8);
        assertThatThrownBy(() -> RelaySqlFile.parse("-- option: does-not-promise-ordering\n" + REFERENCE, "f"))
                .hasMessage("f line 1: unknown option 'does-not-promise-ordering' (known: claim-in-two-transactions, fenced-by-owner, "
                        + "fenced-by-row-version, does-not-promise-INVARIANT for effect-at-most-once, marker-iff-effect, "
                        + "stale-ack-rejected, no-lost-event, produce-atomic, aggregate-order, single-live-lease, eventual-delivery)");
    }

    @Test
    void aRelayFencedByOwnerHasNoTokenCounterAndNoToken() {
        String owner = "-- option: fenced-by-owner\n" + REFERENCE;
        assertThatThrownBy(() -> RelaySqlFile.parse(owner, "f")).hasMessage("f: statement 'claim-token' reads or moves a token "
                + "counter, and a relay fenced-by-owner has none (relaycheck issues its tokens): leave out claim-token, "
                + "claim-token-write, snapshot-token");
        String noCounter = without(without(without(owner, "claim-token"), "claim-token-write"), "snapshot-token");
        assertThatThrownBy(() -> RelaySqlFile.parse(noCounter, "f")).hasMessage("f: statement 'claim-lease' uses :token, and a "
                + "relay fenced-by-owner has no token: match the row's owner with :poller");
        assertThatThrownBy(() -> RelaySqlFile.parse("-- option: fenced-by-owner\n-- option: fenced-by-row-version\n" + REFERENCE, "f"))
                .hasMessage("f: options fenced-by-owner and fenced-by-row-version exclude each other");
    }

    /** {@code text} without statement {@code name} (up to the next statement or comment block). */
    static String without(String text, String name) {
        int at = text.indexOf("-- name: " + name + "\n");
        int next = text.indexOf("\n-- ", at + 1);
        return text.substring(0, at) + (next < 0 ? "" : text.substring(next + 1));
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
