package com.example.shapes;

/** Processes an event and deletes its row in one transaction (a processNow relay): the effect commits with the ack. */
public class DeliverAndAckRelay extends LeasedOutbox {
    @Override
    public String id() {
        return "deliver-and-ack";
    }

    @Override
    public String description() {
        return "delivers and acknowledges in one transaction";
    }

    @Override
    public boolean deliversAndAcksTogether() {
        return true;
    }
}
