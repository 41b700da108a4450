package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.model.Event;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A relay under test, as relaycheck drives it: the outbox side of a team's own relay (its tables, its claim,
 * its fenced acknowledgement and release). relaycheck creates one instance per poller (plus one for the
 * producer and one for reading the tables back) with the public no-argument constructor, and owns
 * everything around it:
 * <ul>
 *   <li>the connections: every method gets the connection to the outbox database, with auto-commit off;
 *       relaycheck commits or rolls back after the call (a lost acknowledgement is an {@link #ack} that
 *       relaycheck rolls back), so an adapter never commits, rolls back or closes it;</li>
 *   <li>the clock: {@code now} is a logical tick count passed in; an adapter must never read the database's
 *       or the JVM's wall clock (a relay that does cannot be checked deterministically);</li>
 *   <li>the faults: crashes, stalls, lost acknowledgements, failing consumers, and the consumer itself.</li>
 * </ul>
 * Tokens are fencing tokens: every successful claim of a row issues one strictly greater than every token
 * issued before. An acknowledgement or release must change the row only when it presents the row's current
 * token.
 */
public interface RelayAdapter {

    /** Creates the relay's tables on a fresh, empty outbox database. */
    void createSchema(Connection outbox) throws SQLException;

    /** Empties the relay's tables and resets its token counter: the state right after {@link #createSchema}. */
    void clear(Connection outbox) throws SQLException;

    /** Inserts the outbox row of {@code event}, inside relaycheck's producer transaction (next to its business write). */
    void enqueue(Connection outbox, Event event) throws SQLException;

    /**
     * Claims up to {@code request.batch()} claimable rows in the relay's order, leasing each to
     * {@code request.poller()} until {@code request.now() + request.leaseTicks()} with a fresh token.
     * Returns what it leased, in the order the poller delivers them.
     */
    List<ClaimedRow> claim(Connection outbox, ClaimRequest request) throws SQLException;

    /** Marks the row delivered if {@code token} is its current token; true when the row changed. */
    boolean ack(Connection outbox, String eventId, long token, int now) throws SQLException;

    /** Clears the row's lease (after a failed delivery) if {@code token} is its current token; true when it changed. */
    boolean release(Connection outbox, String eventId, long token, int now) throws SQLException;

    /** Every outbox row as the model's row, in sequence order, and the last token issued. */
    OutboxSnapshot snapshot(Connection outbox) throws SQLException;

    /**
     * Optional: a relay that reads its candidates in one transaction and leases them in a later one (a
     * check-then-act claim) returns true here and implements {@link #claimRead} and {@link #claimWrite};
     * relaycheck then commits between the two, and another poller may run in between.
     */
    default boolean claimsInTwoTransactions() {
        return false;
    }

    /** The read transaction of a two-transaction claim: the candidates, nothing written. */
    default List<Event> claimRead(Connection outbox, ClaimRequest request) throws SQLException {
        throw new UnsupportedOperationException("this relay claims in one transaction");
    }

    /** The write transaction of a two-transaction claim: leases what {@link #claimRead} returned. */
    default List<ClaimedRow> claimWrite(Connection outbox, ClaimRequest request, List<Event> read) throws SQLException {
        throw new UnsupportedOperationException("this relay claims in one transaction");
    }
}
