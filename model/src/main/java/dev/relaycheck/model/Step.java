package dev.relaycheck.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One atomic step of the world: one transaction or one local action, taken by one actor. Steps are data:
 * a schedule is a list of them, printed and parsed in the form {@code Ack(p1,EVENT-61,t3)}.
 */
public sealed interface Step {

    /** Who takes the step: a poller, {@link Scenario#PRODUCER}, or {@code clock}. */
    String actor();

    /** The event this step is about, or "" for steps about no one event (Claim, Tick, Crash). */
    default String eventId() {
        return "";
    }

    /** True for injected faults (they are what shrinking removes first). */
    default boolean isFault() {
        return false;
    }

    /** The producer commits the business write and the outbox row (or the next half of it). */
    record Produce(String eventId) implements Step {
        public String actor() {
            return Scenario.PRODUCER;
        }

        public String toString() {
            return "Produce(" + eventId + ")";
        }
    }

    /** The producer's transaction fails; what survives depends on the logic's producer shape. */
    record ProduceFails(String eventId) implements Step {
        public String actor() {
            return Scenario.PRODUCER;
        }

        public boolean isFault() {
            return true;
        }

        public String toString() {
            return "ProduceFails(" + eventId + ")";
        }
    }

    /** A poller claims up to a batch of claimable rows (or one half of a check-then-act claim). */
    record Claim(String poller) implements Step {
        public String actor() {
            return poller;
        }

        public String toString() {
            return "Claim(" + poller + ")";
        }
    }

    /** A poller runs the consumer transaction (or one half of it) for the head of its batch. */
    record Deliver(String poller, String eventId, long token) implements Step {
        public String actor() {
            return poller;
        }

        public String toString() {
            return "Deliver(" + poller + "," + eventId + ",t" + token + ")";
        }
    }

    /** A poller acknowledges the head of its batch presenting its fencing token. */
    record Ack(String poller, String eventId, long token) implements Step {
        public String actor() {
            return poller;
        }

        public String toString() {
            return "Ack(" + poller + "," + eventId + ",t" + token + ")";
        }
    }

    /** After a failed delivery a poller releases the row presenting its token. */
    record Release(String poller, String eventId, long token) implements Step {
        public String actor() {
            return poller;
        }

        public String toString() {
            return "Release(" + poller + "," + eventId + ",t" + token + ")";
        }
    }

    /** The logical clock moves one tick: leases expire, stalled pollers become stale. */
    record Tick() implements Step {
        public String actor() {
            return "clock";
        }

        public String toString() {
            return "Tick";
        }
    }

    /** A poller crashes: its local memory is gone, its leases stay until they expire. */
    record Crash(String poller) implements Step {
        public String actor() {
            return poller;
        }

        public boolean isFault() {
            return true;
        }

        public String toString() {
            return "Crash(" + poller + ")";
        }
    }

    /** The consumer committed, but the acknowledgement is lost; the poller gives up its batch. */
    record LoseAck(String poller, String eventId) implements Step {
        public String actor() {
            return poller;
        }

        public boolean isFault() {
            return true;
        }

        public String toString() {
            return "LoseAck(" + poller + "," + eventId + ")";
        }
    }

    /** The consumer transaction rolls back on a transient error; the poller will release the row. */
    record DeliverFails(String poller, String eventId) implements Step {
        public String actor() {
            return poller;
        }

        public boolean isFault() {
            return true;
        }

        public String toString() {
            return "DeliverFails(" + poller + "," + eventId + ")";
        }
    }

    /**
     * The consumer's inbox cleanup deletes the dedup marker of an event once the logic's retention has passed
     * (hazard: a redelivery after the purge is applied again). Only logics with a retention policy take it.
     */
    record Purge(String eventId) implements Step {
        /** Actor name of the consumer's cleanup job in steps and traces. */
        public static final String CONSUMER = "consumer";

        public String actor() {
            return CONSUMER;
        }

        public String toString() {
            return "Purge(" + eventId + ")";
        }
    }

    /**
     * The outbox cleanup job runs once, between the relay's transactions: it deletes the rows the logic's purge
     * takes ({@link RelayLogic#cleanupTakes}; the reference takes only DELIVERED rows). Offered only in a scenario
     * with {@code cleanup true}, and only where it would delete something.
     */
    record Cleanup() implements Step {
        /** Actor name of the outbox cleanup job in steps and traces. */
        public static final String JOB = "cleanup";

        public String actor() {
            return JOB;
        }

        public String toString() {
            return "Cleanup";
        }
    }

    /** A poller extends the lease on the head of its batch while it works (a heartbeat), presenting its token. */
    record Renew(String poller, String eventId, long token) implements Step {
        public String actor() {
            return poller;
        }

        public String toString() {
            return "Renew(" + poller + "," + eventId + ",t" + token + ")";
        }
    }

    /**
     * The search chooses how far a poller's clock is off from the database's (the first steps of a schedule in
     * a scenario with {@code max-skew}): the skew is part of the schedule, so a replay runs the same clocks.
     */
    record Skew(String poller, int skew) implements Step {
        public String actor() {
            return poller;
        }

        public String toString() {
            return "Skew(" + poller + "," + (skew > 0 ? "+" : "") + skew + ")";
        }
    }

    /** An overlapping producer's transaction begins: the event's sequence is allocated, its row not yet visible. */
    record Begin(String eventId) implements Step {
        public String actor() {
            return Scenario.PRODUCER;
        }

        public String toString() {
            return "Begin(" + eventId + ")";
        }
    }

    /** An overlapping producer's transaction commits: the business write and the outbox row become visible. */
    record Commit(String eventId) implements Step {
        public String actor() {
            return Scenario.PRODUCER;
        }

        public String toString() {
            return "Commit(" + eventId + ")";
        }
    }

    Pattern FORM = Pattern.compile("([A-Za-z]+)(?:\\(([^()]*)\\))?");

    /** Parses the printed form back into a step; throws IllegalArgumentException with a readable message. */
    static Step parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a step: '" + text + "'");
        }
        String kind = m.group(1);
        String[] a = m.group(2) == null || m.group(2).isEmpty() ? new String[0] : m.group(2).split(",", -1);
        try {
            return switch (kind) {
                case "Produce" -> new Produce(arg(a, 1, 0, text));
                case "ProduceFails" -> new ProduceFails(arg(a, 1, 0, text));
                case "Claim" -> new Claim(arg(a, 1, 0, text));
                case "Deliver" -> new Deliver(arg(a, 3, 0, text), a[1], token(a[2], text));
                case "Ack" -> new Ack(arg(a, 3, 0, text), a[1], token(a[2], text));
                case "Release" -> new Release(arg(a, 3, 0, text), a[1], token(a[2], text));
                case "Tick" -> {
                    noArguments(kind, a, text);
                    yield new Tick();
                }
                case "Crash" -> new Crash(arg(a, 1, 0, text));
                case "LoseAck" -> new LoseAck(arg(a, 2, 0, text), a[1]);
                case "DeliverFails" -> new DeliverFails(arg(a, 2, 0, text), a[1]);
                case "Purge" -> new Purge(arg(a, 1, 0, text));
                case "Cleanup" -> {
                    noArguments(kind, a, text);
                    yield new Cleanup();
                }
                case "Renew" -> new Renew(arg(a, 3, 0, text), a[1], token(a[2], text));
                case "Skew" -> new Skew(arg(a, 2, 0, text), Integer.parseInt(a[1].startsWith("+") ? a[1].substring(1) : a[1]));
                case "Begin" -> new Begin(arg(a, 1, 0, text));
                case "Commit" -> new Commit(arg(a, 1, 0, text));
                default -> throw new IllegalArgumentException("unknown step kind '" + kind + "' in '" + text + "'");
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException((kind.equals("Skew") ? "bad skew in '" : "bad token in '") + text + "'");
        }
    }

    private static void noArguments(String kind, String[] a, String text) {
        if (a.length != 0) {
            throw new IllegalArgumentException(kind + " takes no arguments: '" + text + "'");
        }
    }

    private static String arg(String[] a, int expected, int index, String text) {
        if (a.length != expected) {
            throw new IllegalArgumentException("expected " + expected + " argument(s) in '" + text + "'");
        }
        for (String s : a) {
            if (s.isBlank()) {
                throw new IllegalArgumentException("empty argument in '" + text + "'");
            }
        }
        return a[index];
    }

    private static long token(String s, String text) {
        if (!s.startsWith("t")) {
            throw new IllegalArgumentException("token must look like t3 in '" + text + "'");
        }
        return Long.parseLong(s.substring(1));
    }
}
