package com.example.gruelbox.relaycheck;

/**
 * {@link GruelboxAdapter} (the effect written through gruelbox's transaction) on a PostgreSQL that ends
 * transactions idle for more than 40 ms ({@code idle_in_transaction_session_timeout}): a handler that stalls
 * longer, holding the entry's row lock, loses its transaction. relaycheck's race stalls pollers inside that
 * transaction (up to 60 ms on PostgreSQL), so the timeout strikes there.
 */
public class IdleTimeoutGruelboxAdapter extends GruelboxAdapter {
    static final int TIMEOUT_MILLIS = 40;

    @Override
    protected int idleInTransactionTimeoutMillis() {
        return TIMEOUT_MILLIS;
    }
}
