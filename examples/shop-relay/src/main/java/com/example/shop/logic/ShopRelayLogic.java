package com.example.shop.logic;

import dev.relaycheck.model.CorrectRelayLogic;

/**
 * The shop relay's lease logic as a model, written before changing its SQL: the decisions of the reference logic
 * (claim by status and expired lease, one counter for fencing tokens, ack fenced by token). The docs' logic route
 * searches it exhaustively with {@code relaycheck explore --logic com.example.shop.logic.ShopRelayLogic}.
 */
public class ShopRelayLogic extends CorrectRelayLogic {
    @Override
    public String id() {
        return "shop-relay";
    }

    @Override
    public String description() {
        return "the shop relay: claim PENDING rows whose lease expired, ack fenced by the claim's token";
    }
}
