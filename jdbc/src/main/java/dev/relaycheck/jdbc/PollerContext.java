package dev.relaycheck.jdbc;

import dev.relaycheck.model.RelayTransactions.Finer;

/**
 * What the pollers of one SQL world share beside the databases: the relay's cursor (a cursor relay's memory, one
 * per relay process) and which finer settle outcomes the scenario asks for (an ack made mid-batch, an ack or release
 * that matched no row), reported as the model reports them.
 */
public record PollerContext(RelayCursor cursor, Finer settle) {

    /** A poller on its own: a cursor of its own, the plain outcomes. */
    public static PollerContext alone() {
        return new PollerContext(new RelayCursor(), Finer.NONE);
    }
}
