package dev.relaycheck.jdbc.world;

import dev.relaycheck.model.RelayTransactions.Finer;

/**
 * What the pollers of one SQL world share beside the databases: the relay's cursor (a cursor relay's memory, one
 * per relay process) and which finer settle outcomes the scenario asks for (an ack made mid-batch, an ack or release
 * that matched no row), reported as the model reports them; and after how many ticks a duplicate's marker makes it
 * a late redelivery ({@code lateDuplicateAfter}, the lease the model grants; -1 where the scenario does not ask); and
 * which clock each lease's expiry was written on ({@link ExpiryClocks}).
 */
public record PollerContext(RelayCursor cursor, Finer settle, int lateDuplicateAfter, ExpiryClocks expiryClocks) {

    /** A poller on its own: a cursor of its own, the plain outcomes. */
    public static PollerContext alone() {
        return new PollerContext(new RelayCursor(), Finer.NONE, -1, new ExpiryClocks());
    }
}
