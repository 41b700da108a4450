package com.example.shop.broken;

import com.example.shop.ShopOutboxRelay;

/**
 * A broken copy of the shop's relay, the kind of change a review lets through: "mark sent by id, the lock
 * version check is redundant". It is not: a worker that stalled past its lease marks a row SENT that
 * another worker now owns. relaycheck must fail it with STALE_ACK_REJECTED.
 */
public class UnfencedShopOutboxRelay extends ShopOutboxRelay {
    public UnfencedShopOutboxRelay(String workerId, int batchSize, long leaseSeconds) {
        super(workerId, batchSize, leaseSeconds);
    }

    @Override
    protected String markSentSql() {
        return "UPDATE order_events SET state = 'SENT', locked_by = NULL, lock_version = NULL, locked_until = NULL "
                + "WHERE event_id = ? AND state = 'NEW'";
    }
}
