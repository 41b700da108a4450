package com.example.shapes;

import dev.relaycheck.model.OutboxRow;

/** Fencing tokens drawn from a database sequence created with INCREMENT BY 7. */
public class SequenceStepRelay extends LeasedOutbox {
    @Override
    public String id() {
        return "sequence-step-7";
    }

    @Override
    public String description() {
        return "fencing tokens from a sequence with a step of 7";
    }

    @Override
    public long issueToken(OutboxRow row, long lastIssued) {
        return lastIssued + 7;
    }
}
