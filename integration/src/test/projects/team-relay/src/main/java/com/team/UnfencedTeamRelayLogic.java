package com.team;

import dev.relaycheck.model.OutboxRow;

/** The team's relay after a review-approved shortcut: acknowledge by event id, the token check is redundant. */
public class UnfencedTeamRelayLogic extends TeamRelayLogic {
    @Override
    public String id() {
        return "team-relay-unfenced";
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token) {
        return row.isPending();
    }
}
