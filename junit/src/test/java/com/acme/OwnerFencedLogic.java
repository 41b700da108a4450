package com.acme;

import dev.relaycheck.model.CorrectRelayLogic;

/** A team's own logic that gets fencing right (the reference's rules, its own name). */
public class OwnerFencedLogic extends CorrectRelayLogic {
    @Override
    public String id() {
        return "acme-owner-fenced";
    }

    @Override
    public String description() {
        return "the team's relay: fenced by token";
    }
}
