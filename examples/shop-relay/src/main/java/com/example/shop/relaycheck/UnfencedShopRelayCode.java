package com.example.shop.relaycheck;

import com.example.shop.ShopOutboxRelay;
import com.example.shop.broken.UnfencedShopOutboxRelay;

/** The broken copy of the shop's relay, checked by its own code in the same way. */
public class UnfencedShopRelayCode extends ShopRelayCode {
    @Override
    protected ShopOutboxRelay relay(String workerId) {
        return new UnfencedShopOutboxRelay(workerId, 2, 30);
    }
}
