package com.example.shapes;

/** The shared decisions alone: a global token counter, delivery and ack in two transactions, markers kept for ever. */
public class PlainRelay extends LeasedOutbox {
    @Override
    public String id() {
        return "plain-relay";
    }

    @Override
    public String description() {
        return "a team's relay with the reference decisions";
    }
}
