package com.example.shop.suite;

import com.example.shop.relaycheck.ShopRelayCode;
import com.example.shop.relaycheck.UnfencedShopRelayCode;
import dev.relaycheck.junit.CheckRelayCode;
import dev.relaycheck.model.Invariant;

/** The same check inside the shop's own test suite: {@code mvn test} runs it with the shop's class path. */
class ShopRelayCodeSuiteTest {
    @CheckRelayCode(ShopRelayCode.class)
    void theShopsRelayIsSafe() {
    }

    @CheckRelayCode(value = UnfencedShopRelayCode.class, expectViolation = Invariant.STALE_ACK_REJECTED)
    void markingSentWithoutTheLockVersionIsCaught() {
    }
}
