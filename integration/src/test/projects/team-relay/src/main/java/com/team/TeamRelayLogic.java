package com.team;

import dev.relaycheck.model.CorrectRelayLogic;

/** The team's relay logic: the fenced protocol, under the team's own name. */
public class TeamRelayLogic extends CorrectRelayLogic {
    @Override
    public String id() {
        return "team-relay";
    }

    @Override
    public String description() {
        return "the team's relay: claim under a lease, ack with the token";
    }
}
