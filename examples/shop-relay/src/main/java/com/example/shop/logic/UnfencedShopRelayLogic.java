package com.example.shop.logic;

import dev.relaycheck.model.OutboxRow;

/**
 * The shop relay's logic after the shortcut of {@code broken/UnfencedShopOutboxRelay}: mark sent by event id while
 * the row is leased, without the token. A stalled poller's late ack then lands on a row another poller re-claimed,
 * which relaycheck reports as STALE_ACK_REJECTED.
 */
public class UnfencedShopRelayLogic extends ShopRelayLogic {
    @Override
    public String id() {
        return "shop-relay-unfenced";
    }

    @Override
    public String description() {
        return "the shop relay marking sent by event id while the row is leased, without the token";
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token) {
        return row.isPending() && row.hasLease();
    }
}
