package dev.relaycheck.jdbc.world;

import dev.relaycheck.model.Event;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A team's own code that runs inside relaycheck's transactions: the producing service's business write (next
 * to relaycheck's {@code stock_order} row and the relay's outbox insert, in the producer's transaction) and the
 * consumer's handler (next to relaycheck's marker, stock and ledger, in the consumer's transaction). Either
 * one throwing rolls its transaction back. relaycheck's own rows stay, since its invariants are judged on them.
 *
 * @param businessWrite the service's write for an event, on the outbox database's connection
 * @param consumer      the consumer's effect for an event, on the consumer database's connection
 */
public record UserCode(BusinessWrite businessWrite, Handler consumer) {

    /** No code of the team's: relaycheck's tables alone. */
    public static final UserCode NONE = new UserCode((c, e) -> { }, (c, e) -> { });

    /** The producing service's business write; it must not commit, roll back or close the connection. */
    @FunctionalInterface
    public interface BusinessWrite {
        void write(Connection outbox, Event event) throws SQLException;
    }

    /** The consumer's effect of an event; it must not commit, roll back or close the connection. */
    @FunctionalInterface
    public interface Handler {
        void handle(Connection consumer, Event event) throws SQLException;
    }
}
