package com.example.shop.relaycheck;

import com.example.shop.ShopOutboxRelay;
import com.example.shop.broken.UnfencedShopOutboxRelay;

/** The adapter for the broken copy: the same adapter, the broken relay. */
public class UnfencedShopRelayAdapter extends ShopRelayAdapter {
    @Override
    protected ShopOutboxRelay relay(String worker, int batch, int leaseTicks) {
        return new UnfencedShopOutboxRelay(worker, batch, leaseTicks);
    }
}
