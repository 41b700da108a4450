package dev.relaycheck.junit;

/**
 * Where a row stands when a fixture starts: committed and PENDING, already DELIVERED (published, acknowledged,
 * its effect applied), or leased to a poller that has gone (it crashed holding it; the lease runs out at
 * the fixture's lease length).
 */
enum Seed {
    PENDING, DELIVERED, LEASED
}
