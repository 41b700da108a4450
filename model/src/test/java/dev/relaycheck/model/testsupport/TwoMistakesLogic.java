package dev.relaycheck.model.testsupport;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.OutboxRow;

import java.util.List;

/**
 * A logic with two mistakes at once, each breaking its own invariant on its own path: no head-of-aggregate rule
 * (AGGREGATE_ORDER) and an ack by event id alone (STALE_ACK_REJECTED). For the tests of a search that reports every
 * invariant broken.
 */
public final class TwoMistakesLogic extends CorrectRelayLogic {
    @Override
    public String id() {
        return "two-mistakes";
    }

    @Override
    public String description() {
        return "no head-of-aggregate rule, and an ack by event id";
    }

    @Override
    public boolean isClaimable(OutboxRow row, List<OutboxRow> outbox, int now) {
        return row.isPending() && (row.lease() == null || row.lease().expiredAt(now));
    }

    @Override
    public boolean acceptsAck(OutboxRow row, long token) {
        return row.isPending();
    }
}
