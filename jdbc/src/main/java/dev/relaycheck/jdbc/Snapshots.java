package dev.relaycheck.jdbc;

import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.Event;
import dev.relaycheck.model.Lease;
import dev.relaycheck.model.OutboxRow;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.RowStatus;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Rebuilds the model's {@link RelayState} from the tables, so the SQL relay can be compared with the model
 * field by field and judged by the same {@code Invariants}. What a database cannot know (the clock, the
 * pollers' memory, the producer's position, faults spent) the caller supplies.
 */
public final class Snapshots {
    private Snapshots() {
    }

    /** The parts of the state that live outside the database. */
    public record Local(int clock, List<PollerState> pollers, ProducerState producer, RelayState.FaultCounts faults) {
    }

    public static RelayState read(Connection outbox, Connection consumer, Local local) {
        try {
            RelayState s = new RelayState(local.clock(), lastToken(outbox), rows(outbox), businessWrites(outbox),
                    consumerState(consumer), local.pollers(), local.producer(), local.faults());
            outbox.commit();
            consumer.commit();
            return s;
        } catch (SQLException ex) {
            throw new RelaySqlException("snapshot", ex);
        }
    }

    static long lastToken(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT last_token FROM fencing_token WHERE id = 1");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static List<OutboxRow> rows(Connection c) throws SQLException {
        List<OutboxRow> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT event_id, aggregate_id, seq, quantity, payload, status, "
                + "lease_owner, lease_token, lease_expiry FROM outbox ORDER BY seq");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Event e = new Event(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getString(5));
                long token = rs.getLong(8);
                Lease lease = null;
                if (!rs.wasNull()) {
                    int expiry = rs.getInt(9);
                    lease = new Lease(rs.getString(7), token, rs.wasNull() ? Lease.NEVER : expiry);
                }
                rows.add(new OutboxRow(e, RowStatus.valueOf(rs.getString(6)), lease));
            }
        }
        return rows;
    }

    static TreeSet<String> businessWrites(Connection c) throws SQLException {
        TreeSet<String> ids = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT order_id FROM stock_order"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    /** Markers, stock, and from the ledger how often each event was applied and in which order per SKU. */
    public static ConsumerState consumerState(Connection c) throws SQLException {
        SortedMap<String, String> markers = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT marker_key, event_id FROM applied_event"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                markers.put(rs.getString(1), rs.getString(2));
            }
        }
        SortedMap<String, Integer> stock = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT sku, units FROM stock_balance"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                stock.put(rs.getString(1), rs.getInt(2));
            }
        }
        SortedMap<String, Integer> effects = new TreeMap<>();
        Map<String, List<Integer>> order = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT event_id, sku, seq FROM stock_movement ORDER BY movement_id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                effects.merge(rs.getString(1), 1, Integer::sum);
                order.computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(rs.getInt(3));
            }
        }
        SortedMap<String, List<Integer>> appliedOrder = new TreeMap<>();
        order.forEach((sku, seqs) -> appliedOrder.put(sku, List.copyOf(seqs)));
        return new ConsumerState(markers, stock, effects, appliedOrder);
    }
}
