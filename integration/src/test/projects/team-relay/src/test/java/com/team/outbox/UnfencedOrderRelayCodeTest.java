package com.team.outbox;

import dev.relaycheck.junit.CheckRelayCode;

/** Fails on purpose: run by name only. */
class UnfencedOrderRelayCodeTest {
    @CheckRelayCode(UnfencedOrderOutboxRelayCheck.class)
    void theUnfencedRelayIsSafe() {
    }
}
