package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A relay written outside the project, as a user brings one: a RelayAdapter class compiled here into a jar
 * (its own table and column names), and a relay file started from 'relaycheck sql template'. Both go
 * through the real CLI in a child JVM, on H2; a broken copy of each must fail naming the invariant, and its
 * printed replay line must reproduce the failure.
 */
class SqlUserRelayTest {
    @TempDir
    static Path dir;
    static Path goodJar;
    static Path brokenJar;

    static final String ADAPTER = """
            package com.acme.parcels;

            import dev.relaycheck.jdbc.adapter.*;
            import dev.relaycheck.model.*;
            import java.sql.*;
            import java.util.*;

            /** The parcel service's relay: its own tables, fenced by a counter. */
            public class ParcelRelay implements RelayAdapter {
                protected String ackWhere() { return "id = ? AND fence = ? AND state = 'NEW'"; }
                protected int leaseUntil(ClaimRequest r) { return r.expiry(); }

                public void createSchema(Connection c) throws SQLException {
                    try (Statement st = c.createStatement()) {
                        st.execute("CREATE TABLE parcel_outbox (id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, position INT NOT NULL, "
                                + "units INT NOT NULL, body VARCHAR(200) NOT NULL, state VARCHAR(8) NOT NULL, owner VARCHAR(64), fence BIGINT, lease_until INT)");
                        st.execute("CREATE TABLE parcel_fence (k INT PRIMARY KEY, last BIGINT NOT NULL)");
                        st.execute("INSERT INTO parcel_fence VALUES (1, 0)");
                    }
                }

                public void clear(Connection c) throws SQLException {
                    try (Statement st = c.createStatement()) {
                        st.execute("DELETE FROM parcel_outbox");
                        st.execute("UPDATE parcel_fence SET last = 0");
                    }
                }

                public void enqueue(Connection c, Event e) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO parcel_outbox (id, sku, position, units, body, state) VALUES (?, ?, ?, ?, ?, 'NEW')")) {
                        ps.setString(1, e.id()); ps.setString(2, e.aggregate()); ps.setInt(3, e.seq()); ps.setInt(4, e.quantity()); ps.setString(5, e.payload());
                        ps.executeUpdate();
                    }
                }

                static final String FREE = "p.state = 'NEW' AND (p.fence IS NULL OR p.lease_until <= ?) AND NOT EXISTS "
                        + "(SELECT 1 FROM parcel_outbox q WHERE q.sku = p.sku AND q.state = 'NEW' AND q.position < p.position)";

                public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
                    List<Event> seen = new ArrayList<>();
                    try (PreparedStatement ps = c.prepareStatement("SELECT p.id, p.sku, p.position, p.units, p.body FROM parcel_outbox p WHERE "
                            + FREE + " ORDER BY p.position FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED")) {
                        ps.setInt(1, r.now()); ps.setInt(2, r.batch());
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) seen.add(new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5)));
                        }
                    }
                    List<ClaimedRow> out = new ArrayList<>();
                    if (seen.isEmpty()) return out;
                    long last;
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT last FROM parcel_fence WHERE k = 1 FOR UPDATE")) {
                        rs.next(); last = rs.getLong(1);
                    }
                    for (Event e : seen) {
                        try (PreparedStatement ps = c.prepareStatement("UPDATE parcel_outbox p SET owner = ?, fence = ?, lease_until = ? WHERE p.id = ? AND " + FREE)) {
                            int until = leaseUntil(r);
                            ps.setString(1, r.poller()); ps.setLong(2, last + 1); ps.setInt(3, until); ps.setString(4, e.id()); ps.setInt(5, r.now());
                            if (ps.executeUpdate() == 1) { last++; out.add(new ClaimedRow(e, last, until)); }
                        }
                    }
                    try (PreparedStatement ps = c.prepareStatement("UPDATE parcel_fence SET last = ? WHERE k = 1")) {
                        ps.setLong(1, last); ps.executeUpdate();
                    }
                    return out;
                }

                public boolean ack(Connection c, String id, long token, int now) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("UPDATE parcel_outbox SET state = 'SENT', owner = NULL, fence = NULL, lease_until = NULL WHERE " + ackWhere())) {
                        ps.setString(1, id);
                        if (ackWhere().contains("fence = ?")) ps.setLong(2, token);
                        return ps.executeUpdate() == 1;
                    }
                }

                public boolean release(Connection c, String id, long token, int now) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("UPDATE parcel_outbox SET owner = NULL, fence = NULL, lease_until = NULL WHERE id = ? AND fence = ? AND state = 'NEW'")) {
                        ps.setString(1, id); ps.setLong(2, token);
                        return ps.executeUpdate() == 1;
                    }
                }

                public OutboxSnapshot snapshot(Connection c) throws SQLException {
                    List<OutboxRow> rows = new ArrayList<>();
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                            "SELECT id, sku, position, units, body, state, owner, fence, lease_until FROM parcel_outbox ORDER BY position")) {
                        while (rs.next()) {
                            Event e = new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                            long fence = rs.getLong(8);
                            Lease lease = rs.wasNull() ? null : new Lease(rs.getString(7), fence, rs.getInt(9));
                            rows.add(new OutboxRow(e, rs.getString(6).equals("SENT") ? RowStatus.DELIVERED : RowStatus.PENDING, lease));
                        }
                    }
                    long last;
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT last FROM parcel_fence WHERE k = 1")) {
                        rs.next(); last = rs.getLong(1);
                    }
                    return new OutboxSnapshot(last, rows);
                }
            }
            """;

    static final String BROKEN = """
            package com.acme.parcels;

            /** The same relay with an acknowledgement that does not check the fence. */
            public class UnfencedParcelRelay extends ParcelRelay {
                @Override
                protected String ackWhere() { return "id = ? AND state = 'NEW'"; }
            }
            """;

    static final String CLOCKED = """
            package com.acme.parcels;

            /** The same relay with an acknowledgement that also looks at the database's clock. */
            public class ClockedParcelRelay extends ParcelRelay {
                @Override
                protected String ackWhere() { return "id = ? AND fence = ? AND state = 'NEW' AND CURRENT_TIMESTAMP IS NOT NULL"; }
            }
            """;

    static final String WALL_CLOCK = """
            package com.acme.parcels;

            import dev.relaycheck.jdbc.adapter.ClaimRequest;
            import java.time.Instant;

            /** The same relay with leases that run until a wall-clock second, as a relay in production might. */
            public class WallClockParcelRelay extends ParcelRelay {
                @Override
                protected int leaseUntil(ClaimRequest r) { return (int) Instant.now().getEpochSecond() + r.leaseTicks(); }
            }
            """;

    @BeforeAll
    static void compile() {
        goodJar = ChildCli.compileJar(dir, "parcels", Map.of("com.acme.parcels.ParcelRelay", ADAPTER));
        brokenJar = ChildCli.compileJar(dir, "parcels-broken", Map.of("com.acme.parcels.ParcelRelay", ADAPTER,
                "com.acme.parcels.UnfencedParcelRelay", BROKEN, "com.acme.parcels.ClockedParcelRelay", CLOCKED,
                "com.acme.parcels.WallClockParcelRelay", WALL_CLOCK));
    }

    @Test
    void aJavaRelayThatReadsTheJvmClockIsRefusedWithOneLineNotCalledAViolation() {
        ChildCli.Run r = ChildCli.run(dir, "sql", "conformance", "--adapter", "com.acme.parcels.WallClockParcelRelay", "--classpath",
                brokenJar.toString(), "--seeds", "2", "--controls", "no", "--out", dir.resolve("wall-clock").toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith("relaycheck sql: com.acme.parcels.WallClockParcelRelay gave different results for the same"
                + " schedule run twice (scenario ").contains("it reads a clock of its own").endsWith("(logical ticks)\n")
                .hasLineCount(1);
        assertThat(r.out()).doesNotContain("VIOLATION").doesNotContain("FAILED");
    }

    @Test
    void aJavaRelayThatReadsTheDatabaseClockIsStoppedWithOneLine() {
        ChildCli.Run r = ChildCli.run(dir, "sql", "conformance", "--adapter", "com.acme.parcels.ClockedParcelRelay", "--classpath",
                brokenJar.toString(), "--seeds", "2", "--out", dir.resolve("clocked").toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("relaycheck sql: com.acme.parcels.ClockedParcelRelay.ack reads the database's clock "
                + "(CURRENT_TIMESTAMP): relaycheck cannot check a wall-clock relay deterministically; take the time as :now (logical ticks)\n");
    }

    /**
     * Only the SQL checks and only the user's relay (no model, no controls): nothing but the relay can fail the run,
     * so its exit 1 is the relay's failure, which the report names with its invariant.
     */
    @Test
    void checkJudgesTheUsersRelayInTheSqlColumn() throws Exception {
        Path results = dir.resolve("check-results");
        ChildCli.Run r = ChildCli.run(dir, "check", "--only", "sql", "--budget", "quick", "--db", "h2", "--controls", "no",
                "--adapter", "com.acme.parcels.UnfencedParcelRelay", "--classpath", brokenJar.toString(), "--results", results.toString());
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as("the model was not selected").doesNotContain("[model]");
        String summary = Files.readString(results.resolve("sql").resolve("summary.tsv"));
        assertThat(summary).contains("sql-conformance\tcom.acme.parcels.UnfencedParcelRelay\tPASS\tFAILED\tSTALE_ACK_REJECTED");
        assertThat(r.out()).contains("model checker not selected").containsPattern("(?m)^sql +FAIL +")
                .containsPattern("- \\*\\*sql sql-conformance on com\\.acme\\.parcels\\.UnfencedParcelRelay: FAILED STALE_ACK_REJECTED")
                .containsPattern("(?m)^FAIL: SQL relay com\\.acme\\.parcels\\.UnfencedParcelRelay, model not selected; no variants run; verdict VIOLATION");
        // the pages name what was checked: the team's relay; the logic-level checkers' logic is relaycheck's reference
        assertThat(Files.readString(results.resolve("summary.md")))
                .startsWith("## relaycheck: FAIL for the SQL relay `com.acme.parcels.UnfencedParcelRelay` (VIOLATION)\n\n"
                        + "Logic: relaycheck's reference logic `correct` (no --logic given).\n")
                .contains("Model: not selected");
        // the finding as any finding is shown: the invariant, a swimlane with the culprit marked, the trace, the replay line
        String html = Files.readString(results.resolve("index.html"));
        assertThat(html).contains("<title>relaycheck: FAIL for the SQL relay com.acme.parcels.UnfencedParcelRelay</title>")
                .contains("<p class=\"muted\" id=\"logic\">Logic: relaycheck's reference logic <code>correct</code> (no --logic given): ")
                .doesNotContain("Logic under test: <code>correct</code>");
        assertThat(html).contains("<h2 id=\"sql-findings\">SQL findings</h2>");
        String finding = html.substring(html.indexOf("<h3 id=\"sql-sql-conformance-com.acme.parcels.UnfencedParcelRelay-h2\">"));
        finding = finding.substring(0, finding.indexOf("</p>\n", finding.indexOf("<p class=\"replay\">")));
        assertThat(finding).contains("com.acme.parcels.UnfencedParcelRelay on h2: STALE_ACK_REJECTED (sql-conformance)")
                .contains("aria-label=\"swimlane of STALE_ACK_REJECTED\"").contains("<tr class=\"culprit\">")
                .contains("&lt;== STALE_<wbr>ACK_<wbr>REJECTED").contains("<mark>")
                .contains("./relaycheck sql replay --adapter com.acme.parcels.UnfencedParcelRelay");
        // and the JUnit XML a CI server reads: the sql checker's test case fails with the finding and its replay line
        org.w3c.dom.NodeList cases = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(results.resolve("TEST-relaycheck.xml").toFile()).getElementsByTagName("testcase");
        org.w3c.dom.Element sql = null;
        for (int i = 0; i < cases.getLength(); i++) {
            org.w3c.dom.Element c = (org.w3c.dom.Element) cases.item(i);
            if (c.getAttribute("classname").equals("relaycheck.checkers") && c.getAttribute("name").equals("sql")) {
                sql = c;
            }
        }
        assertThat(sql).as("the sql checker's test case").isNotNull();
        org.w3c.dom.Element failure = (org.w3c.dom.Element) sql.getElementsByTagName("failure").item(0);
        assertThat(failure).as("a failed test case").isNotNull();
        assertThat(failure.getAttribute("message")).startsWith("sql-conformance com.acme.parcels.UnfencedParcelRelay: FAILED STALE_ACK_REJECTED");
        assertThat(failure.getTextContent()).contains("STALE_ACK_REJECTED (com.acme.parcels.UnfencedParcelRelay): ")
                .contains("\nreplay: ./relaycheck sql replay --adapter com.acme.parcels.UnfencedParcelRelay");
    }

    @Test
    void usersAdapterPassesConformanceAndItsBrokenCopyFailsWithAReplayableLine() {
        ChildCli.Run ok = ChildCli.run(dir, "sql", "conformance", "--adapter", "com.acme.parcels.ParcelRelay", "--classpath",
                goodJar.toString(), "--db", "h2", "--seeds", "12", "--out", dir.resolve("good").toString());
        assertThat(ok.exit()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("sql-conformance").contains("com.acme.parcels.ParcelRelay");

        ChildCli.Run bad = ChildCli.run(dir, "sql", "conformance", "--adapter", "com.acme.parcels.UnfencedParcelRelay", "--classpath",
                brokenJar.toString(), "--db", "h2", "--seeds", "12", "--out", dir.resolve("bad").toString());
        assertThat(bad.exit()).as(bad.toString()).isEqualTo(1);
        String row = bad.out().lines().filter(l -> l.contains("com.acme.parcels.UnfencedParcelRelay") && l.contains("FAILED"))
                .findFirst().orElseThrow(() -> new AssertionError(bad.toString()));
        assertThat(row).contains("STALE_ACK_REJECTED").contains("replay: ./relaycheck sql replay --adapter com.acme.parcels.UnfencedParcelRelay");

        String[] replay = row.substring(row.indexOf("replay: ./relaycheck ") + "replay: ./relaycheck ".length()).strip().split(" ");
        ChildCli.Run again = ChildCli.run(dir, replay);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).contains("STALE_ACK_REJECTED").contains("REPRODUCED").contains("model Ack(");
    }

    @Test
    void relayFileFromTheTemplatePassesAndAnEditThatDropsTheFenceFails() throws IOException {
        ChildCli.Run template = ChildCli.run(dir, "sql", "template");
        assertThat(template.exit()).isZero();
        Path good = dir.resolve("my-relay.sql");
        Files.writeString(good, template.out(), StandardCharsets.UTF_8);
        ChildCli.Run ok = ChildCli.run(dir, "sql", "conformance", "--sql", good.toString(), "--seeds", "12", "--out", dir.resolve("f1").toString());
        assertThat(ok.exit()).as(ok.toString()).isZero();

        Path bad = dir.resolve("no-fence.sql");
        Files.writeString(bad, template.out().replace("WHERE event_id = :event AND lease_token = :token AND status = 'PENDING'\n\n-- the fenced release",
                "WHERE event_id = :event AND status = 'PENDING'\n\n-- the fenced release"), StandardCharsets.UTF_8);
        ChildCli.Run fails = ChildCli.run(dir, "sql", "conformance", "--sql", bad.toString(), "--seeds", "12", "--out", dir.resolve("f2").toString());
        assertThat(fails.exit()).as(fails.toString()).isEqualTo(1);
        assertThat(fails.out()).contains("no-fence.sql").contains("STALE_ACK_REJECTED").contains("--sql " + bad.toAbsolutePath());
    }

    @Test
    void badRelaysAreOneLineUsageErrors() throws IOException {
        Path clock = dir.resolve("clock.sql");
        ChildCli.Run template = ChildCli.run(dir, "sql", "template");
        Files.writeString(clock, template.out().replace("WHERE event_id = :event AND lease_token = :token AND status = 'PENDING'\n\n-- the fenced release",
                "WHERE event_id = :event AND lease_token = :token AND status = 'PENDING' AND CURRENT_TIMESTAMP IS NOT NULL\n\n-- the fenced release"));
        for (String[] args : new String[][]{
                {"sql", "conformance", "--adapter", "com.acme.Nope", "--classpath", goodJar.toString()},
                {"sql", "conformance", "--adapter", "java.lang.String"},
                {"sql", "conformance", "--sql", dir.resolve("missing.sql").toString()},
                {"sql", "conformance", "--sql", clock.toString()},
                {"sql", "conformance", "--db", "oracle"},
                {"sql", "conformance", "--sql", clock.toString(), "--adapter", "x.Y"}}) {
            ChildCli.Run r = ChildCli.run(dir, args);
            assertThat(r.exit()).as(r.toString()).isEqualTo(2);
            assertThat(r.err().lines().count()).as(r.toString()).isEqualTo(1);
            assertThat(r.err()).startsWith("relaycheck sql: ").doesNotContain("Exception").doesNotContain("\tat ");
        }
        assertThat(ChildCli.run(dir, "sql", "conformance", "--sql", clock.toString()).err())
                .contains("statement 'ack' reads the database's clock (CURRENT_TIMESTAMP)");
    }
}
