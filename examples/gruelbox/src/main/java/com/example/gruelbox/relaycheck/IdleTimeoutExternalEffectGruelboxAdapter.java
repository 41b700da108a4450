package com.example.gruelbox.relaycheck;

/**
 * {@link ExternalEffectGruelboxAdapter} (the effect committed in another system) on a PostgreSQL that ends
 * transactions idle for more than {@value IdleTimeoutGruelboxAdapter#TIMEOUT_MILLIS} ms: the effect stays, the
 * delete dies with the session, the entry is processed again.
 */
public class IdleTimeoutExternalEffectGruelboxAdapter extends ExternalEffectGruelboxAdapter {
    @Override
    protected int idleInTransactionTimeoutMillis() {
        return IdleTimeoutGruelboxAdapter.TIMEOUT_MILLIS;
    }
}
