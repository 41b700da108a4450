package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * RelayLogic's optional hooks, with relays written outside the project (compiled here into a jar) and run through
 * the real CLI in a child JVM, on H2:
 * <ul>
 *   <li>a relay fenced by a per-row version column (every fenced write sets version = version + 1), no global
 *       counter: conformance, race and crash-kill pass; a copy whose ack does not check the version fails with
 *       STALE_ACK_REJECTED;</li>
 *   <li>the same relay delivering and acknowledging in one transaction (lock by version, handler, fenced ack):
 *       with the effect written through its transaction it survives a kill at every cut point, including the two
 *       inside that transaction; with the effect committed outside it, a kill after the effect loses
 *       EFFECT_AT_MOST_ONCE; declared as not promising EFFECT_AT_MOST_ONCE, the same finding is reported as "not
 *       promised" and the relay passes.</li>
 * </ul>
 */
class SqlVersionFencedRelayTest {
    @TempDir
    static Path dir;
    static Path jar;

    static final String JOB_RELAY = """
            package com.acme.jobs;

            import dev.relaycheck.jdbc.adapter.*;
            import dev.relaycheck.model.*;
            import java.sql.*;
            import java.util.*;

            /** The job service's relay: optimistic locking on a version column, no fencing counter. */
            public class JobRelay implements RelayAdapter {
                protected String fence() { return " AND version = ?"; }

                @Override public RelayLogic.TokenPolicy tokenPolicy() { return RelayLogic.TokenPolicy.PER_ROW_VERSION; }

                public void createSchema(Connection c) throws SQLException {
                    try (Statement st = c.createStatement()) {
                        st.execute("CREATE TABLE job_outbox (id VARCHAR(64) PRIMARY KEY, sku VARCHAR(64) NOT NULL, pos INT NOT NULL, "
                                + "units INT NOT NULL, body VARCHAR(200) NOT NULL, state VARCHAR(8) NOT NULL, owner VARCHAR(64), "
                                + "version BIGINT NOT NULL, due INT)");
                    }
                }

                public void clear(Connection c) throws SQLException {
                    try (Statement st = c.createStatement()) { st.execute("DELETE FROM job_outbox"); }
                }

                public void enqueue(Connection c, Event e) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO job_outbox (id, sku, pos, units, body, state, version) VALUES (?, ?, ?, ?, ?, 'NEW', 0)")) {
                        ps.setString(1, e.id()); ps.setString(2, e.aggregate()); ps.setInt(3, e.seq()); ps.setInt(4, e.quantity()); ps.setString(5, e.payload());
                        ps.executeUpdate();
                    }
                }

                public List<ClaimedRow> claim(Connection c, ClaimRequest r) throws SQLException {
                    List<Object[]> seen = new ArrayList<>();
                    try (PreparedStatement ps = c.prepareStatement("SELECT p.id, p.sku, p.pos, p.units, p.body, p.version FROM job_outbox p "
                            + "WHERE p.state = 'NEW' AND (p.owner IS NULL OR p.due <= ?) AND NOT EXISTS (SELECT 1 FROM job_outbox q "
                            + "WHERE q.sku = p.sku AND q.state = 'NEW' AND q.pos < p.pos) ORDER BY p.pos FETCH FIRST ? ROWS ONLY FOR UPDATE SKIP LOCKED")) {
                        ps.setInt(1, r.now()); ps.setInt(2, r.batch());
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) seen.add(new Object[]{new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5)), rs.getLong(6)});
                        }
                    }
                    List<ClaimedRow> out = new ArrayList<>();
                    for (Object[] s : seen) {
                        Event e = (Event) s[0]; long v = (Long) s[1];
                        try (PreparedStatement ps = c.prepareStatement("UPDATE job_outbox SET owner = ?, due = ?, version = version + 1 WHERE id = ? AND version = ?")) {
                            ps.setString(1, r.poller()); ps.setInt(2, r.expiry()); ps.setString(3, e.id()); ps.setLong(4, v);
                            if (ps.executeUpdate() == 1) out.add(new ClaimedRow(e, v + 1, r.expiry()));
                        }
                    }
                    return out;
                }

                protected boolean fenced(Connection c, String set, String id, long version) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("UPDATE job_outbox SET " + set + " WHERE id = ? AND state = 'NEW' AND owner IS NOT NULL" + fence())) {
                        ps.setString(1, id);
                        if (!fence().isEmpty()) ps.setLong(2, version);
                        return ps.executeUpdate() == 1;
                    }
                }

                public boolean ack(Connection c, String id, long token, int now) throws SQLException {
                    return fenced(c, "state = 'DONE', owner = NULL, due = NULL", id, token);
                }

                public boolean release(Connection c, String id, long token, int now) throws SQLException {
                    return fenced(c, "owner = NULL, due = NULL, version = version + 1", id, token);
                }

                public OutboxSnapshot snapshot(Connection c) throws SQLException {
                    List<OutboxRow> rows = new ArrayList<>();
                    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                            "SELECT id, sku, pos, units, body, state, owner, version, due FROM job_outbox ORDER BY pos")) {
                        while (rs.next()) {
                            Event e = new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                            boolean done = rs.getString(6).equals("DONE");
                            long version = rs.getLong(8);
                            Lease lease = rs.getString(7) == null ? null : new Lease(rs.getString(7), version, rs.getInt(9));
                            rows.add(new OutboxRow(e, done ? RowStatus.DELIVERED : RowStatus.PENDING, lease, done ? 0 : version));
                        }
                    }
                    return new OutboxSnapshot(0, rows);
                }
            }
            """;

    static final String UNFENCED = """
            package com.acme.jobs;

            /** The same relay with the review-approved shortcut: ack and release by id, the version check dropped. */
            public class UnversionedJobRelay extends JobRelay {
                @Override protected String fence() { return ""; }
            }
            """;

    /** Lock the row by version, run the handler, fenced ack: one transaction; the handler writes through it. */
    static final String INSIDE = """
            package com.acme.jobs;

            import dev.relaycheck.jdbc.adapter.*;
            import java.sql.*;

            public class InsideJobRelay extends JobRelay {
                @Override public boolean deliversAndAcks() { return true; }

                protected void handle(Connection c, Delivery d) throws SQLException { d.applyIn(c); }

                @Override public boolean deliverAndAck(Connection c, ClaimedRow held, int now, Delivery d) throws SQLException {
                    try (PreparedStatement ps = c.prepareStatement("SELECT id FROM job_outbox WHERE id = ? AND version = ? AND state = 'NEW' FOR UPDATE")) {
                        ps.setString(1, held.event().id()); ps.setLong(2, held.token());
                        try (ResultSet rs = ps.executeQuery()) { if (!rs.next()) return false; }
                    }
                    handle(c, d);
                    return ack(c, held.event().id(), held.token(), now);
                }
            }
            """;

    /** The same, with a handler that calls an external system: its effect commits on its own. */
    static final String OUTSIDE = """
            package com.acme.jobs;

            import dev.relaycheck.jdbc.adapter.*;
            import java.sql.*;

            public class OutsideJobRelay extends InsideJobRelay {
                @Override protected void handle(Connection c, Delivery d) throws SQLException { d.applyOutside(); }
            }
            """;

    /** The outside relay, honest about it: at-least-once, so neither exactly-once effect nor order is its promise. */
    static final String AT_LEAST_ONCE = """
            package com.acme.jobs;

            import dev.relaycheck.model.Invariant;
            import java.util.*;

            public class AtLeastOnceJobRelay extends OutsideJobRelay {
                @Override public Set<Invariant> promisedInvariants() {
                    Set<Invariant> all = EnumSet.allOf(Invariant.class);
                    all.remove(Invariant.EFFECT_AT_MOST_ONCE);
                    all.remove(Invariant.AGGREGATE_ORDER); // a redelivery lands after later events of its SKU
                    return all;
                }
            }
            """;

    @BeforeAll
    static void compile() {
        jar = ChildCli.compileJar(dir, "jobs", Map.of("com.acme.jobs.JobRelay", JOB_RELAY, "com.acme.jobs.UnversionedJobRelay", UNFENCED,
                "com.acme.jobs.InsideJobRelay", INSIDE, "com.acme.jobs.OutsideJobRelay", OUTSIDE,
                "com.acme.jobs.AtLeastOnceJobRelay", AT_LEAST_ONCE));
    }

    private static ChildCli.Run sql(String command, String adapter, String out, String... more) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("sql", command, "--adapter", "com.acme.jobs." + adapter,
                "--classpath", jar.toString(), "--db", "h2", "--controls", "no", "--out", dir.resolve(out).toString()));
        args.addAll(java.util.List.of(more));
        return ChildCli.run(dir, args.toArray(String[]::new));
    }

    @Test
    void aRelayFencedByAPerRowVersionPassesEveryCheck() {
        ChildCli.Run r = sql("all", "JobRelay", "job", "--seeds", "12", "--rounds", "1");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sql-conformance: PASS").contains("sql-race: PASS").contains("sql-crash-kill: PASS")
                .contains("fenced by a per-row version");
    }

    @Test
    void theCopyWhoseAckIgnoresTheVersionFailsWithStaleAckRejected() {
        ChildCli.Run r = sql("conformance", "UnversionedJobRelay", "unversioned", "--seeds", "20");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        String row = r.out().lines().filter(l -> l.contains("com.acme.jobs.UnversionedJobRelay") && l.contains("FAILED"))
                .findFirst().orElseThrow(() -> new AssertionError(r.toString()));
        assertThat(row).contains("STALE_ACK_REJECTED").contains("replay: ./relaycheck sql replay --adapter com.acme.jobs.UnversionedJobRelay");
    }

    @Test
    void deliverAndAckWithTheEffectInsideSurvivesAKillAtEveryCutPoint() {
        ChildCli.Run r = sql("all", "InsideJobRelay", "inside", "--seeds", "12", "--rounds", "1");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sql-conformance: PASS").contains("sql-race: PASS").contains("sql-crash-kill: PASS")
                .contains("killed after-handler-effect #1").contains("killed before-ack-commit #1")
                .contains("delivers and acknowledges in one transaction");
    }

    @Test
    void deliverAndAckWithTheEffectOutsideLosesEffectAtMostOnceOnAKillAfterTheEffect() {
        ChildCli.Run r = sql("crash", "OutsideJobRelay", "outside", "--rounds", "1");
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("sql-crash-kill: FAIL")
                .containsPattern("killed after-handler-effect #1 \\(batch 1, exit 137\\): EFFECT_AT_MOST_ONCE: E\\d applied 2 times");
        assertThat(r.out()).contains("killed before-ack-commit #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE");
    }

    @Test
    void anInvariantTheRelayDoesNotPromiseIsReportedNotFailed() {
        ChildCli.Run r = sql("crash", "AtLeastOnceJobRelay", "at-least-once", "--rounds", "1");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.out()).contains("sql-crash-kill: PASS").contains("not promised: EFFECT_AT_MOST_ONCE")
                .contains("not promised by this relay (checked, reported, never a failure): EFFECT_AT_MOST_ONCE");
    }
}
