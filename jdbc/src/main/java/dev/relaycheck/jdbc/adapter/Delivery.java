package dev.relaycheck.jdbc.adapter;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The consumer's effect of one delivered event, as a deliver-and-ack relay's handler applies it
 * ({@link RelayAdapter#deliverAndAck}). The handler chooses where the effect commits:
 * <ul>
 *   <li>{@link #applyIn(Connection)} with the relay's own transaction's connection: the effect commits or rolls
 *       back with the relay's ack (the outbox database holds the consumer's tables for such a relay);</li>
 *   <li>{@link #applyOutside()}: the effect commits at once in the consumer's own transaction, as a call to an
 *       external system does; nothing the relay does afterwards takes it back.</li>
 * </ul>
 * The effect is the consumer's write without a dedup check (what a plain handler does: relaycheck records an
 * applied_event marker with it so the effect stays observable, and counts how often each event was applied).
 */
public interface Delivery {

    /** Writes the effect on {@code connection}, inside that connection's open transaction; commits nothing. */
    void applyIn(Connection connection) throws SQLException;

    /** Writes the effect in the consumer's own transaction and commits it. */
    void applyOutside() throws SQLException;
}
