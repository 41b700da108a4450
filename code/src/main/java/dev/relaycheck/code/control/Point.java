package dev.relaycheck.code.control;

/**
 * A place where an actor's thread waits for relaycheck to let it go: before the relay starts a poll, before each
 * statement, commit or rollback it sends, before it hands an event to the consumer, before the producer writes
 * an event.
 *
 * @param kind what the actor is about to do
 * @param sql  the statement (for {@link Kind#STATEMENT}), else null
 * @param what the outbox id delivered (for {@link Kind#DELIVER}), the event produced (for {@link Kind#PRODUCE})
 */
public record Point(Kind kind, String sql, String what) {

    public enum Kind {
        /** An instance is idle and may start a poll. */
        POLL,
        /** The producer may write its next event. */
        PRODUCE,
        STATEMENT,
        COMMIT,
        ROLLBACK,
        /** The relay hands an event to the consumer. */
        DELIVER
    }

    public static Point poll() {
        return new Point(Kind.POLL, null, null);
    }

    /** Whether a fault of the database connection (a lost commit acknowledgement) can strike here. */
    public boolean isCommit() {
        return kind == Kind.COMMIT;
    }

    /** The statement shortened to one line, for traces. */
    public String shortSql() {
        if (sql == null) {
            return "";
        }
        String one = sql.strip().replaceAll("\\s+", " ");
        return one.length() <= 96 ? one : one.substring(0, 93) + "...";
    }

    @Override
    public String toString() {
        return switch (kind) {
            case POLL -> "poll";
            case PRODUCE -> "produce " + what;
            case STATEMENT -> shortSql();
            case COMMIT -> "COMMIT";
            case ROLLBACK -> "ROLLBACK";
            case DELIVER -> "deliver " + what;
        };
    }
}
