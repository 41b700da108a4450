package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic.TokenPolicy;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

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

    /**
     * Marks the row delivered if {@code token} is its current token; true when the row changed. Implement this or the
     * form that knows the poller.
     */
    default boolean ack(Connection outbox, String eventId, long token, int now) throws SQLException {
        throw new UnsupportedOperationException(getClass().getName() + " implements neither ack form");
    }

    /**
     * The same ack, knowing which poller acks (a relay whose ack is fenced by owner, or by batch, uses it); relaycheck
     * calls this one. True when the ack changed a row.
     */
    default boolean ack(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return ack(outbox, eventId, token, now);
    }

    /**
     * Clears the row's lease (after a failed delivery) if {@code token} is its current token; true when it changed.
     * Implement this or the form that knows the poller.
     */
    default boolean release(Connection outbox, String eventId, long token, int now) throws SQLException {
        throw new UnsupportedOperationException(getClass().getName() + " implements neither release form");
    }

    /**
     * The same release, knowing which poller releases (a relay fenced by owner uses it); relaycheck calls this one.
     * True when the release changed the row.
     */
    default boolean release(Connection outbox, String eventId, long token, int now, String poller) throws SQLException {
        return release(outbox, eventId, token, now);
    }

    /**
     * What an adapter class leaves unimplemented that relaycheck calls: each pair of forms (with and without the
     * poller) of which it overrides neither, as one line; empty when nothing is missing.
     */
    static java.util.Optional<String> missing(Class<? extends RelayAdapter> type) {
        List<String> none = new java.util.ArrayList<>();
        for (String name : List.of("ack", "release")) {
            boolean plain = declaredBelow(type, name, Connection.class, String.class, long.class, int.class);
            boolean withPoller = declaredBelow(type, name, Connection.class, String.class, long.class, int.class, String.class);
            if (!plain && !withPoller) {
                none.add(name + "(outbox, eventId, token, now[, poller])");
            }
        }
        return none.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(type.getName() + " implements neither form of "
                + String.join(" nor of ", none) + ": implement one of them");
    }

    private static boolean declaredBelow(Class<?> type, String name, Class<?>... params) {
        try {
            return type.getMethod(name, params).getDeclaringClass() != RelayAdapter.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

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

    /**
     * Optional: the invariants this relay promises; the default is all of them. A relay that does not promise
     * one (a relay without per-aggregate order, a relay whose consumer effect is exactly-once only when the
     * handler writes through its transaction) still has it checked, but a violation is reported as "not
     * promised" instead of failing the relay; reports say which invariants were checked and which do not apply.
     */
    default Set<Invariant> promisedInvariants() {
        return EnumSet.allOf(Invariant.class);
    }

    /**
     * Optional: true for a relay fenced by owner, with no token column: its ack and release match while the row's
     * owner is the poller ({@link ClaimRequest#poller()}, which {@link #ack(Connection, String, long, int, String)} and
     * {@link #release(Connection, String, long, int, String)} are given) and the lease is the one that poller took.
     * relaycheck then issues the fencing tokens itself, in two tables of its own in the outbox database
     * ({@code relaycheck_lease}, {@code relaycheck_token}) written in the claim's transaction, and judges the relay as
     * it judges a token-fenced one: the tokens its claim and snapshot return are not read (return 0). Such fencing
     * holds only while owner names are unique: a relay that writes one owner for several workers (a node's id) lets
     * one worker's ack match another's lease, and STALE_ACK_REJECTED says so.
     */
    default boolean fencedByOwner() {
        return false;
    }

    /**
     * Optional: {@link TokenPolicy#PER_ROW_VERSION} for a relay that fences by a version column of each row
     * instead of a global token counter: every fenced write of a row (claim, release) sets its version to
     * version + 1, a claim's token is the new version, and an ack or release must match the row's current
     * version. {@link OutboxSnapshot#lastToken()} is then 0, and each row read back carries its version
     * ({@code OutboxRow.version}; 0 on a DELIVERED row).
     */
    default TokenPolicy tokenPolicy() {
        return TokenPolicy.GLOBAL_COUNTER;
    }

    /**
     * Optional: true for a relay whose delivery and acknowledgement are one transaction; relaycheck then calls
     * {@link #deliverAndAck} instead of running its consumer and then {@link #ack}.
     */
    default boolean deliversAndAcks() {
        return false;
    }

    /**
     * The deliver-and-ack transaction of a held row: the relay's own processing (its lock, its handler, its
     * fenced ack or delete) on {@code outbox}, with relaycheck's logical time {@code now}. The handler applies
     * the consumer's effect through {@code delivery}, inside this transaction or outside it. Returns true when
     * the relay acknowledged the row (its ack or delete matched {@code held.token()}), false when it refused it
     * (the row moved on: its lock or version no longer matches). relaycheck commits {@code outbox} afterwards
     * either way (a relay may record a failed attempt), and rolls it back on an exception.
     */
    default boolean deliverAndAck(Connection outbox, ClaimedRow held, int now, Delivery delivery) throws SQLException {
        throw new UnsupportedOperationException("this relay delivers and acknowledges in separate transactions");
    }

    /** The write transaction of a two-transaction claim: leases what {@link #claimRead} returned. */
    default List<ClaimedRow> claimWrite(Connection outbox, ClaimRequest request, List<Event> read) throws SQLException {
        throw new UnsupportedOperationException("this relay claims in one transaction");
    }

    /**
     * Optional: true for a relay that reads only rows after a cursor it keeps (a polling relay that remembers the
     * last sequence it saw). relaycheck keeps that cursor for it, shared by its pollers as one relay process
     * would: the highest sequence any of them has claimed, passed as {@link ClaimRequest#cursor()}.
     */
    default boolean readsByCursor() {
        return false;
    }

    /**
     * Optional: true for a relay with an outbox cleanup job (a purge or archive of handled rows on a schedule);
     * relaycheck then calls {@link #cleanup} where the model's schedule runs the job (a Cleanup step, between the
     * relay's transactions) and runs the scenarios that need it (outbox-cleanup).
     */
    default boolean cleansUp() {
        return false;
    }

    /**
     * The cleanup job's transaction at logical time {@code now}: deletes (or moves to an archive) the rows it purges.
     * A correct cleanup takes only rows the relay has delivered: a row still pending, leased to a poller at work or
     * waiting for a retry, is an event the relay would then never deliver. relaycheck reads the outbox back around
     * the call to see which rows went.
     */
    default void cleanup(Connection outbox, int now) throws SQLException {
        throw new UnsupportedOperationException("this relay has no outbox cleanup");
    }

    /**
     * Optional: true for a relay whose pollers renew (heartbeat) the lease they work under; relaycheck then calls
     * {@link #renew} where the model's schedule renews, and runs the scenarios that need it (lease-renewal).
     */
    default boolean renews() {
        return false;
    }

    /**
     * Extends the lease on {@code eventId} to {@code expiry} if the relay accepts the renewal by {@code poller}
     * presenting {@code token} at logical time {@code now}; true when the row changed. A correct renewal is fenced by
     * token and re-checks expiry: it never extends a lease that was taken over or has lapsed.
     */
    default boolean renew(Connection outbox, String eventId, long token, String poller, int now, int expiry) throws SQLException {
        throw new UnsupportedOperationException("this relay does not renew its leases");
    }
}
