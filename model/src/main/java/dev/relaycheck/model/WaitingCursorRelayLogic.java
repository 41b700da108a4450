package dev.relaycheck.model;

/**
 * A correct cursor relay: it reads rows above its cursor and below the lowest sequence still in flight, so its
 * cursor never passes a row that has yet to commit (what a relay reading only below the oldest open
 * transaction's sequence does, e.g. PostgreSQL's {@code pg_snapshot_xmin}). The alternative to claiming by
 * status ({@link CorrectRelayLogic}) named for commit visibility; not in the catalogue.
 */
public class WaitingCursorRelayLogic extends CorrectRelayLogic {
    public static final String ID = "cursor-waits-for-in-flight";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String description() {
        return "cursor relay that reads only below the lowest sequence still in flight, then claims like the reference logic";
    }

    @Override
    public CursorRule cursorRule() {
        return CursorRule.WAITS_FOR_IN_FLIGHT;
    }
}
