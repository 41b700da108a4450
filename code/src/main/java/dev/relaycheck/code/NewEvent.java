package dev.relaycheck.code;

/**
 * An event relaycheck asks the service to write.
 *
 * @param id        relaycheck's name for it ({@code E1}, {@code E2}, ...); the team's code may use it as the outbox id
 *                  or make its own (relaycheck then learns the row's id from the outbox query after the commit)
 * @param aggregate the aggregate it belongs to ({@code SKU-1}): events of one aggregate must be delivered in order
 * @param sequence  its place among all events relaycheck writes, from 1
 * @param quantity  a number for the payload (the reference domain's units of stock)
 */
public record NewEvent(String id, String aggregate, int sequence, int quantity) {
}
