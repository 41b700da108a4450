package com.team.outbox.misbehaving;

import com.team.outbox.TeamRelayCheck;
import dev.relaycheck.code.Instance;
import dev.relaycheck.code.NewEvent;
import dev.relaycheck.code.Poller;

/**
 * A poll that catches every Throwable and returns as usual, as a scheduling library does around each task it runs
 * (it logs the failure and goes on): also relaycheck's crash of the instance. Its service's writes do the same.
 */
public class SwallowingRelay extends TeamRelayCheck {
    @Override
    public Poller newInstance(Instance instance) {
        Poller poll = super.newInstance(instance);
        return () -> {
            try {
                poll.poll();
            } catch (Throwable ignored) {
                // the library logs it and goes on with its next task
            }
        };
    }

    @Override
    public void produce(Instance producer, NewEvent event) {
        try {
            super.produce(producer, event);
        } catch (Throwable ignored) {
            // the service logs it and takes the next order
        }
    }
}
