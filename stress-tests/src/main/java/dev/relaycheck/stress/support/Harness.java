package dev.relaycheck.stress.support;

import dev.relaycheck.model.RelayLogic;

/**
 * What every harness state exposes so a test can check that a nested class really runs the target its name
 * claims (the summary maps {@code ClaimIgnoresLease} to {@code claim-ignores-lease}, and that mapping is only
 * honest if the state was built from that variant, or from that broken store).
 */
public interface Harness {

    /** The relay logic the state was built with. */
    RelayLogic logic();

    /** The store the actors race on. */
    Object store();
}
