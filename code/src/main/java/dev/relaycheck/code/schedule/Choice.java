package dev.relaycheck.code.schedule;

/**
 * One decision of a schedule: which waiting actor goes on, or the clock moves, or a fault strikes. A schedule is a
 * list of these, written as text ({@link #toString()}, read back by {@link #parse}): the replay line carries it.
 */
public sealed interface Choice {

    /** The actor (a relay thread, or the producer) waiting at a point goes on. */
    record Go(String actor) implements Choice {
        public String toString() {
            return actor;
        }
    }

    /** The clock moves to the next lease boundary. */
    record Tick() implements Choice {
        public String toString() {
            return "tick";
        }
    }

    /** The actor's process dies where it waits; a new instance starts in its place. */
    record Crash(String actor) implements Choice {
        public String toString() {
            return "crash:" + actor;
        }
    }

    /**
     * A new instance starts in the place of the actor's, which the operator believes dead but which goes on running
     * (a paused JVM, a partitioned pod); with reused instance ids the new one has the same id.
     */
    record Replace(String actor) implements Choice {
        public String toString() {
            return "replace:" + actor;
        }
    }

    /** The actor's commit happens and its acknowledgement is lost. */
    record LoseCommit(String actor) implements Choice {
        public String toString() {
            return "lose-commit:" + actor;
        }
    }

    /** The consumer fails the actor's delivery: nothing applied, the delivery throws. */
    record FailDelivery(String actor) implements Choice {
        public String toString() {
            return "fail-delivery:" + actor;
        }
    }

    /** The consumer applies the actor's delivery, and its acknowledgement is lost: the delivery throws. */
    record LoseDelivery(String actor) implements Choice {
        public String toString() {
            return "lose-delivery:" + actor;
        }
    }

    /** Whether it is a fault (the healing phase takes none). */
    default boolean isFault() {
        return !(this instanceof Go) && !(this instanceof Tick);
    }

    static Choice parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            return text.equals("tick") ? new Tick() : new Go(text);
        }
        String actor = text.substring(colon + 1);
        return switch (text.substring(0, colon)) {
            case "crash" -> new Crash(actor);
            case "replace" -> new Replace(actor);
            case "lose-commit" -> new LoseCommit(actor);
            case "fail-delivery" -> new FailDelivery(actor);
            case "lose-delivery" -> new LoseDelivery(actor);
            default -> throw new IllegalArgumentException("not a schedule step: '" + text + "'");
        };
    }
}
