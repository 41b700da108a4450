package dev.relaycheck.jdbc.world;

import dev.relaycheck.jdbc.adapter.OutboxSnapshot;
import dev.relaycheck.jdbc.adapter.RelayAdapter;
import dev.relaycheck.jdbc.db.RelaySqlException;
import dev.relaycheck.jdbc.db.Tx;
import dev.relaycheck.model.ConsumerState;
import dev.relaycheck.model.PollerState;
import dev.relaycheck.model.ProducerState;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Surroundings;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
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

    public static RelayState read(Connection outbox, Connection consumer, RelayAdapter relay, Local local) {
        return read(outbox, consumer, relay, local, Surroundings.NONE);
    }

    /**
     * The same, with the part of the state's surroundings that lives outside the tables ({@code hazards}: the producers'
     * open transactions, a cursor relay's cursor and the rows it passed over).
     */
    public static RelayState read(Connection outbox, Connection consumer, RelayAdapter relay, Local local, Surroundings hazards) {
        return read(outbox, consumer, relay, local, hazards, Dedup.UNDATED);
    }

    /**
     * How the model sees the consumer's markers: {@code dated}, with the tick each was written (where a retention
     * policy or a late redelivery is judged; elsewhere the model keeps markers undated), and which events' markers the
     * inbox cleanup purged by policy (relaycheck's cleanup job knows; the table only shows they are gone).
     */
    public record Dedup(boolean dated, SortedSet<String> purged) {
        public static final Dedup UNDATED = new Dedup(false, new TreeSet<>());
    }

    /** The same, reading the consumer's markers as {@code dedup} says. */
    public static RelayState read(Connection outbox, Connection consumer, RelayAdapter relay, Local local, Surroundings hazards,
                                  Dedup dedup) {
        try {
            OutboxSnapshot snap = relay.snapshot(outbox);
            RelayState s = new RelayState(local.clock(), snap.lastToken(), snap.rows(), businessWrites(outbox),
                    consumerState(consumer, dedup), local.pollers(), local.producer(), local.faults()).withSurroundings(hazards);
            outbox.commit();
            consumer.commit();
            return s;
        } catch (SQLException ex) {
            Tx.rollbackQuietly(outbox, ex);
            Tx.rollbackQuietly(consumer, ex);
            throw new RelaySqlException("snapshot", ex);
        }
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
        return consumerState(c, Dedup.UNDATED);
    }

    /** The same, with the markers' write ticks and the purged events as {@code dedup} says. */
    public static ConsumerState consumerState(Connection c, Dedup dedup) throws SQLException {
        SortedMap<String, Integer> writtenAt = new TreeMap<>();
        if (dedup.dated()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT marker_key, written_at FROM applied_event WHERE written_at IS NOT NULL");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    writtenAt.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
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
        return new ConsumerState(markers, stock, effects, appliedOrder, writtenAt, dedup.purged());
    }
}
