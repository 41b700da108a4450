package dev.relaycheck.code;

import dev.relaycheck.model.Invariant;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.Set;

/**
 * What a team writes to have relaycheck drive its relay's own code: how to build an instance of the relay as the
 * service does, how the service writes an event, and one query that reads the outbox in relaycheck's terms.
 * relaycheck hands every instance a {@link javax.sql.DataSource}, a {@link java.time.Clock} and an instance id of
 * its own, and calls the instance's poll method (the relay's {@code pollOnce()}, unchanged); every statement,
 * commit and rollback the relay sends is a point where relaycheck chooses who goes next.
 *
 * <p>The class needs a public no-argument constructor: relaycheck's CLI and replay lines name it. Each run gets a new
 * instance; one that is {@link AutoCloseable} is closed at the end of its run (with what it built for the producer),
 * as is each {@link Poller} that is.
 */
public interface RelayFactory {

    /**
     * Creates the relay's tables (and the consumer's, if the team's consumer runs) in an empty database, through
     * the team's migrations on {@code db}; by default {@link #createSchema(Connection)} in one transaction.
     */
    default void createSchema(DataSource db) throws Exception {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            createSchema(c);
            c.commit();
        }
    }

    /** Creates the tables on {@code c} (relaycheck commits): the DDL, when no migration tool needs a DataSource. */
    default void createSchema(Connection c) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " implements neither createSchema(DataSource) nor createSchema(Connection)");
    }

    /**
     * One relay instance as the service builds it, on what {@code instance} gives: its DataSource, its clock and its
     * instance id. The relay's publisher hands each event to {@link Instance#deliver}.
     */
    Poller newInstance(Instance instance) throws Exception;

    /**
     * Writes one event as the service does, with its own transaction handling, on what {@code producer} gives (its
     * DataSource and the clock); by default {@link #produce(Connection, NewEvent)} in one transaction. The service may
     * crash and restart: a new {@code producer} then stands for the new process, and what was built on the old one is
     * dead.
     */
    default void produce(Instance producer, NewEvent event) throws Exception {
        try (Connection c = producer.dataSource().getConnection()) {
            c.setAutoCommit(false);
            produce(c, event);
            c.commit();
        }
    }

    /**
     * Writes one event on {@code c}, inside the transaction relaycheck commits: the team's own writer code (the
     * business write and the outbox row), or one insert.
     */
    default void produce(Connection c, NewEvent event) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " implements neither produce(Instance, NewEvent) nor produce(Connection, NewEvent)");
    }

    /**
     * One SQL query that reads the outbox in relaycheck's terms, a row per outbox row, with these columns (by name,
     * in any order): {@code id}, {@code aggregate}, {@code order_key} (the order events of one aggregate must be
     * delivered in), {@code delivered} (a boolean: done with, e.g. {@code status = 'SENT'}), {@code owner} (the
     * instance id holding a lease, or null), {@code lease_expiry} (when that lease runs out: a timestamp or the
     * number the relay compares with its clock; null when none) and, optionally, {@code token} (a fencing token or
     * row version the relay checks).
     */
    String outboxQuery();

    /**
     * One SQL query that reads the consumer's effects, a row per time an effect was applied, with the event's outbox
     * id (or the {@link NewEvent#id()} relaycheck gave it) in a column named {@code id} (e.g. a ledger of stock moves). Null (the default): the relay delivers to
     * relaycheck's recording consumer, which applies each event's effect once, as an idempotent consumer does.
     */
    default String effectsQuery() {
        return null;
    }

    /**
     * The team's cleanup job, if it has one: the purge or archive of outbox rows it runs on a schedule (e.g.
     * {@code DELETE FROM outbox WHERE status = 'SENT'}), built as the service builds it on what {@code job} gives.
     * relaycheck runs it as an actor of its own, {@code cleanup}: each call of the returned poller is a pass it starts
     * like a poll, at any point between the relay's statements, and its statements are scheduling points too. A row it
     * deletes before the event's effect was applied is a lost event, and the finding names the cleanup's step. Null
     * (the default): the service has no cleanup job.
     */
    default Poller cleanup(Instance job) throws Exception {
        return null;
    }

    /** The invariants the relay does not promise (e.g. {@link Invariant#AGGREGATE_ORDER}): judged, reported as not promised. */
    default Set<Invariant> notPromised() {
        return Set.of();
    }
}
