package com.team.outbox;

import dev.relaycheck.junit.CheckRelayCode;

class OrderRelayCodeTest {
    @CheckRelayCode(OrderOutboxRelayCheck.class)
    void theRelayIsSafe() {
    }
}
