package dev.relaycheck.code;

import javax.sql.DataSource;
import java.time.Clock;

/** What relaycheck gives one relay instance: everything the relay touches from outside. */
public interface Instance {

    /** The database, through connections relaycheck controls: each statement, commit and rollback is a scheduling point. */
    DataSource dataSource();

    /** relaycheck's clock: time moves only when relaycheck ticks it. */
    Clock clock();

    /** The instance id (e.g. {@code relay-1}); a restarted instance gets a new one, or the same one where a scenario says. */
    String id();

    /**
     * Delivers the event whose outbox id is {@code outboxId} to relaycheck's recording consumer. Throws where
     * relaycheck injects a consumer failure, as a broker client does.
     */
    void deliver(String outboxId) throws Exception;

    /**
     * Delivers the event whose outbox id is {@code outboxId} to the team's own consumer: {@code consumer} runs it
     * (its statements go through {@link #dataSource()} and are scheduling points too), and relaycheck reads the
     * effects it wrote with {@link RelayFactory#effectsQuery()}.
     */
    void deliver(String outboxId, ConsumerCall consumer) throws Exception;

    /** The team's consumer handling one event. */
    @FunctionalInterface
    interface ConsumerCall {
        void run() throws Exception;
    }
}
