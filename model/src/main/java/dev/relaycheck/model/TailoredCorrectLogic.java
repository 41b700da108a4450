package dev.relaycheck.model;

/**
 * The reference logic for a relay built differently from relaycheck's reference relay in ways that are not
 * mistakes: it fences by a per-row version instead of a global counter, it delivers and acknowledges in one
 * transaction, or it does not promise per-aggregate order (so it has no head-of-aggregate rule). The SQL
 * checks compare such a relay with this logic instead of {@link CorrectRelayLogic}; with every trait at its
 * default it is {@link CorrectRelayLogic} itself.
 */
public final class TailoredCorrectLogic extends CorrectRelayLogic {
    private final TokenPolicy tokens;
    private final boolean deliversAndAcks;
    private final boolean headOfAggregate;

    private TailoredCorrectLogic(TokenPolicy tokens, boolean deliversAndAcks, boolean headOfAggregate) {
        this.tokens = tokens;
        this.deliversAndAcks = deliversAndAcks;
        this.headOfAggregate = headOfAggregate;
    }

    /** The reference logic with these traits ({@link CorrectRelayLogic} when all are the reference relay's). */
    public static RelayLogic of(TokenPolicy tokens, boolean deliversAndAcks, boolean headOfAggregate) {
        if (tokens == TokenPolicy.GLOBAL_COUNTER && !deliversAndAcks && headOfAggregate) {
            return new CorrectRelayLogic();
        }
        return new TailoredCorrectLogic(tokens, deliversAndAcks, headOfAggregate);
    }

    @Override
    public String id() {
        return ID + (tokens == TokenPolicy.PER_ROW_VERSION ? "+per-row-version" : "") + (deliversAndAcks ? "+deliver-and-ack" : "")
                + (headOfAggregate ? "" : "+no-aggregate-order");
    }

    @Override
    public String description() {
        return "reference logic" + (tokens == TokenPolicy.PER_ROW_VERSION ? ", fenced by a per-row version" : "")
                + (deliversAndAcks ? ", delivery and ack in one transaction" : "")
                + (headOfAggregate ? "" : ", no head-of-aggregate rule (per-aggregate order not promised)");
    }

    @Override
    public boolean isClaimable(OutboxRow row, java.util.List<OutboxRow> outbox, int now) {
        return headOfAggregate ? super.isClaimable(row, outbox, now) : row.isPending() && row.unleasedAt(now);
    }

    @Override
    public TokenPolicy tokenPolicy() {
        return tokens;
    }

    @Override
    public boolean deliversAndAcksTogether() {
        return deliversAndAcks;
    }
}
