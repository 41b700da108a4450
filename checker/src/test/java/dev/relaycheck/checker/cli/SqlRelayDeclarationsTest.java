package dev.relaycheck.checker.cli;

import dev.relaycheck.jdbc.adapter.RelaySqlFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a relay declares about itself, the same on every route, with relays written here (a Java adapter compiled into
 * a jar outside the project, relay files written as a team writes them) and run through the real CLI on H2:
 * <ul>
 *   <li>a relay fenced by owner, with no token column: its ack and release match while the row is locked by the
 *       poller; it declares so ({@code fencedByOwner()}, {@code -- option: fenced-by-owner}) and relaycheck issues the
 *       tokens. It passes; the same relay writing one owner id for every worker of a node, and one whose ack forgets the
 *       owner, fail with STALE_ACK_REJECTED;</li>
 *   <li>a relay file without the head-of-aggregate rule that says {@code -- option: does-not-promise-aggregate-order}:
 *       the finding is reported as not promised, the relay passes; without the line it fails with AGGREGATE_ORDER.</li>
 * </ul>
 */
class SqlRelayDeclarationsTest {
    @TempDir
    static Path dir;
    static Path jar;

    /** The job service's relay: rows locked by the worker's id until a deadline, no fencing token. */
    static final String LOCKED_BY = """
            package com.acme.jobs;

            import dev.relaycheck.jdbc.adapter.*;
            import dev.relaycheck.model.*;
            import java.sql.*;
            import java.util.*;

            public class LockedByRelay implements RelayAdapter {
                /** The id a worker writes into locked_by. */
                protected String owner(String poller) { return poller; }
                /** How ack and release make sure the row is still this worker's. */
                protected String mine() { return " AND locked_by = ?"; }

                @Override public boolean fencedByOwner() { return true; }

                public void createSchema(Connection c) throws SQLException {
                    try (Statement st = c.createStatement()) {
                        st.execute("CREATE TABLE jobs (id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, pos INT NOT NULL, "
                                + "units INT NOT NULL, body VARCHAR(200) NOT NULL, state VARCHAR(8) NOT NULL, locked_by VARCHAR(64), "
                                + "locked_until INT)");
                    }
                }

                public void clear(Connection c) throws SQLException {
                    try (Statement st = c.createStatement()) { st.execute("DELETE FROM jobs"); }
                }

                public void enqueue(Connection c, Event e) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO jobs (id, sku, pos, units, body, state) VALUES (?, ?, ?, ?, ?, 'NEW')")) {
                        ps.setString(1, e.id()); ps.setString(2, e.aggregate()); ps.setInt(3, e.seq()); ps.setInt(4, e.quantity());
                        ps.setString(5, e.payload());
                        ps.executeUpdate();
                    }
                }

                public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
                    List<Event> seen = new ArrayList<>();
                    try (PreparedStatement ps = c.prepareStatement("SELECT p.id, p.sku, p.pos, p.units, p.body FROM jobs p "
                            + "WHERE p.state = 'NEW' AND (p.locked_by IS NULL OR p.locked_until <= ?) AND NOT EXISTS (SELECT 1 FROM jobs q "
                            + "WHERE q.sku = p.sku AND q.state = 'NEW' AND q.pos < p.pos) ORDER BY p.pos FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED")) {
                        ps.setInt(1, r.now()); ps.setInt(2, r.batch());
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) seen.add(new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5)));
                        }
                    }
                    List<ClaimedRow> out = new ArrayList<>();
                    for (Event e : seen) {
                        try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET locked_by = ?, locked_until = ? WHERE id = ? "
                                + "AND state = 'NEW' AND (locked_by IS NULL OR locked_until <= ?)")) {
                            ps.setString(1, owner(r.poller())); ps.setInt(2, r.expiry()); ps.setString(3, e.id()); ps.setInt(4, r.now());
                            if (ps.executeUpdate() == 1) out.add(new ClaimedRow(e, 0, r.expiry()));
                        }
                    }
                    return out;
                }

                private boolean settle(Connection c, String set, String id, String poller) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("UPDATE jobs SET " + set + " WHERE id = ? AND state = 'NEW'" + mine())) {
                        ps.setString(1, id);
                        if (!mine().isEmpty()) ps.setString(2, owner(poller));
                        return ps.executeUpdate() == 1;
                    }
                }

                @Override public boolean ack(Connection c, String id, long token, int now, String poller) throws SQLException {
                    return settle(c, "state = 'DONE', locked_by = NULL, locked_until = NULL", id, poller);
                }

                @Override public boolean release(Connection c, String id, long token, int now, String poller) throws SQLException {
                    return settle(c, "locked_by = NULL, locked_until = NULL", id, poller);
                }

                public OutboxSnapshot snapshot(Connection c) throws SQLException {
                    List<OutboxRow> rows = new ArrayList<>();
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                            "SELECT id, sku, pos, units, body, state, locked_by, locked_until FROM jobs ORDER BY pos")) {
                        while (rs.next()) {
                            Event e = new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                            Lease lease = rs.getString(7) == null ? null : new Lease(rs.getString(7), 0, rs.getInt(8));
                            rows.add(new OutboxRow(e, rs.getString(6).equals("DONE") ? RowStatus.DELIVERED : RowStatus.PENDING, lease));
                        }
                    }
                    return new OutboxSnapshot(0, rows);
                }
            }
            """;

    /** Every worker of the node locks rows under the node's id: owner names are no longer unique. */
    static final String NODE_ID = """
            package com.acme.jobs;

            public class NodeIdRelay extends LockedByRelay {
                @Override protected String owner(String poller) { return "node-1"; }
            }
            """;

    /** The shortcut: ack and release by id, the owner check dropped. */
    static final String ANY_OWNER = """
            package com.acme.jobs;

            public class AnyOwnerRelay extends LockedByRelay {
                @Override protected String mine() { return ""; }
            }
            """;

    /** The same relay as a relay file. */
    static final String LOCKED_BY_FILE = """
            -- the job service's relay: rows locked by the worker's id until a deadline, no fencing token
            -- option: fenced-by-owner

            -- name: schema
            CREATE TABLE jobs (id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, pos INT NOT NULL, units INT NOT NULL,
              body VARCHAR(200) NOT NULL, state VARCHAR(8) NOT NULL, locked_by VARCHAR(64), locked_until INT)

            -- name: clear
            DELETE FROM jobs

            -- name: produce
            INSERT INTO jobs (id, sku, pos, units, body, state) VALUES (:event, :aggregate, :seq, :quantity, :payload, 'NEW')

            -- name: claim-select
            SELECT j.id AS event_id, j.sku AS aggregate_id, j.pos AS seq, j.units AS quantity, j.body AS payload FROM jobs j
            WHERE j.state = 'NEW' AND (j.locked_by IS NULL OR j.locked_until <= :now)
              AND NOT EXISTS (SELECT 1 FROM jobs e WHERE e.sku = j.sku AND e.state = 'NEW' AND e.pos < j.pos)
            ORDER BY j.pos FETCH FIRST :batch ROWS ONLY FOR UPDATE SKIP LOCKED

            -- name: claim-lease
            UPDATE jobs SET locked_by = :poller, locked_until = :expiry
            WHERE id = :event AND state = 'NEW' AND (locked_by IS NULL OR locked_until <= :now)

            -- name: claim-granted
            SELECT locked_until AS lease_expiry FROM jobs WHERE id = :event

            -- name: ack
            UPDATE jobs SET state = 'DONE', locked_by = NULL, locked_until = NULL WHERE id = :event AND state = 'NEW' AND locked_by = :poller

            -- name: release
            UPDATE jobs SET locked_by = NULL, locked_until = NULL WHERE id = :event AND state = 'NEW' AND locked_by = :poller

            -- name: snapshot
            SELECT id AS event_id, sku AS aggregate_id, pos AS seq, units AS quantity, body AS payload,
              CASE WHEN state = 'DONE' THEN 'DELIVERED' ELSE 'PENDING' END AS status, locked_by AS lease_owner,
              locked_until AS lease_expiry
            FROM jobs ORDER BY pos
            """;

    @BeforeAll
    static void compile() {
        jar = ChildCli.compileJar(dir, "jobs", Map.of("com.acme.jobs.LockedByRelay", LOCKED_BY, "com.acme.jobs.NodeIdRelay", NODE_ID,
                "com.acme.jobs.AnyOwnerRelay", ANY_OWNER));
    }

    private static ChildCli.Run sql(String command, List<String> relay, String out, String... more) {
        List<String> args = new ArrayList<>(List.of("sql", command));
        args.addAll(relay);
        args.addAll(List.of("--db", "h2", "--controls", "no", "--out", dir.resolve(out).toString()));
        args.addAll(List.of(more));
        return ChildCli.run(dir, args.toArray(String[]::new));
    }

    private static List<String> adapter(String name) {
        return List.of("--adapter", "com.acme.jobs." + name, "--classpath", jar.toString());
    }

    private static List<String> file(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return List.of("--sql", f.toString());
    }

    /** The line of {@code check} that names {@code relay} and says FAILED. */
    private static String failedLine(ChildCli.Run r, String relay) {
        return r.out().lines().filter(l -> l.contains(relay) && l.contains("FAILED")).findFirst()
                .orElseThrow(() -> new AssertionError("no FAILED line for " + relay + "\n" + r));
    }

    @Test
    void aRelayFencedByOwnerPassesEveryCheckWithTheTokensRelaycheckIssues() {
        ChildCli.Run r = sql("all", adapter("LockedByRelay"), "locked-by", "--seeds", "12", "--rounds", "1");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sql-conformance: PASS").contains("sql-race: PASS").contains("sql-crash-kill: PASS")
                .contains("fenced by owner (relaycheck issues its fencing tokens)");
    }

    @Test
    void sharedOwnerIdsAndAnAckThatForgetsTheOwnerAreStaleAcksByName() {
        ChildCli.Run node = sql("conformance", adapter("NodeIdRelay"), "node-id", "--seeds", "20");
        assertThat(node.exit()).as(node.toString()).isEqualTo(1);
        assertThat(failedLine(node, "com.acme.jobs.NodeIdRelay")).contains("STALE_ACK_REJECTED");
        ChildCli.Run any = sql("conformance", adapter("AnyOwnerRelay"), "any-owner", "--seeds", "20");
        assertThat(any.exit()).as(any.toString()).isEqualTo(1);
        assertThat(failedLine(any, "com.acme.jobs.AnyOwnerRelay")).contains("STALE_ACK_REJECTED");
    }

    @Test
    void aRelayFileFencedByOwnerPassesAndItsSharedOwnerCopyIsCaught() throws IOException {
        ChildCli.Run r = sql("conformance", file("locked-by.sql", LOCKED_BY_FILE), "locked-by-file", "--seeds", "12");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sql-conformance: PASS").contains("fenced by owner (relaycheck issues its fencing tokens)");
        String shared = LOCKED_BY_FILE.replace("SET locked_by = :poller", "SET locked_by = 'node-1'")
                .replace("AND locked_by = :poller", "AND locked_by = 'node-1'");
        ChildCli.Run node = sql("conformance", file("node-id.sql", shared), "node-id-file", "--seeds", "20");
        assertThat(node.exit()).as(node.toString()).isEqualTo(1);
        assertThat(failedLine(node, "node-id.sql")).contains("STALE_ACK_REJECTED");
    }

    @Test
    void aRelayFileDeclaresWhatItDoesNotPromise() throws IOException {
        String unordered = RelaySqlFile.referenceText().replace(
                "\n  AND NOT EXISTS (SELECT 1 FROM outbox e WHERE e.aggregate_id = o.aggregate_id AND e.status = 'PENDING' AND e.seq < o.seq)", "");
        assertThat(unordered).doesNotContain("NOT EXISTS");
        ChildCli.Run undeclared = sql("conformance", file("unordered.sql", unordered), "unordered", "--seeds", "20");
        assertThat(undeclared.exit()).as(undeclared.toString()).isEqualTo(1);
        assertThat(failedLine(undeclared, "unordered.sql")).contains("AGGREGATE_ORDER");

        ChildCli.Run declared = sql("conformance", file("unordered-declared.sql",
                "-- option: does-not-promise-aggregate-order\n" + unordered), "unordered-declared", "--seeds", "20");
        assertThat(declared.exit()).as(declared.toString()).isZero();
        assertThat(declared.out()).contains("sql-conformance: PASS").contains("not promised, seen: AGGREGATE_ORDER")
                .contains("not promised by this relay (checked, reported, never a failure): AGGREGATE_ORDER");
    }
}
