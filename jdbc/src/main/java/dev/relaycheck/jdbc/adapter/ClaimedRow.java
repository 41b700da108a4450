package dev.relaycheck.jdbc.adapter;

import dev.relaycheck.model.Event;
import dev.relaycheck.model.Lease;

/**
 * One row a claim leased: the event as the claim read it (the payload the poller will deliver), the token
 * it was leased with and the expiry on the logical clock ({@link Lease#NEVER} for a lease without one).
 */
public record ClaimedRow(Event event, long token, int expiry) {
}
