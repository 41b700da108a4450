package com.acme;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.OutboxRow;

/** A team's own logic with the review-approved shortcut: acknowledge by event id, the token check is redundant. */
public class UnfencedLogic extends CorrectRelayLogic {
    @Override
    public String id() {
        return "acme-unfenced";
    }

    @Override
    public String description() {
        return "the team's relay: acks by event id";
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token) {
        return row.isPending();
    }
}
