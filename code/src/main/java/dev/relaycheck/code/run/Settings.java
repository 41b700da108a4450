package dev.relaycheck.code.run;

import java.time.Duration;

/**
 * The bounds of one run of a relay's code.
 *
 * @param instances     relay instances running at once
 * @param events        events the producer writes
 * @param aggregates    aggregates they are spread over (round robin: E1 and E3 on SKU-1, ...)
 * @param steps         steps of the faulty phase, before the healing phase
 * @param ticks         clock moves in the faulty phase
 * @param crashes       instance crashes (each followed by a new instance)
 * @param replacements  instances replaced while they still run (only with reused instance ids)
 * @param lostCommits   commits whose acknowledgement is lost
 * @param consumerFaults consumer failures (nothing applied, or applied and the acknowledgement lost)
 * @param instanceIds   whether a new instance gets a new id or the one of the instance it replaces
 * @param bound         how long an actor may run between two points before the run stops as not progressing
 * @param healingSteps  steps the healing phase may take at most
 */
public record Settings(int instances, int events, int aggregates, int steps, int ticks, int crashes, int replacements,
                       int lostCommits, int consumerFaults, InstanceIds instanceIds, Duration bound, int healingSteps) {

    /** How instance ids are handed out to instances that start in the place of others. */
    public enum InstanceIds {
        /** Every instance gets an id of its own (relay-3 replaces relay-1). */
        UNIQUE,
        /**
         * A restarted instance gets the id of the one it replaces (a pod's stable name, a hostname), also when the
         * operator replaced an instance that was only paused and goes on running.
         */
        REUSED;

        public static InstanceIds parse(String s) {
            return switch (s) {
                case "unique" -> UNIQUE;
                case "reused" -> REUSED;
                default -> throw new IllegalArgumentException("instance ids are 'unique' or 'reused', not '" + s + "'");
            };
        }

        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public static Settings defaults() {
        return new Settings(2, 3, 2, 60, 4, 1, 0, 1, 1, InstanceIds.UNIQUE, Duration.ofSeconds(10), 600);
    }

    public Settings withInstanceIds(InstanceIds ids) {
        return new Settings(instances, events, aggregates, steps, ticks, crashes, ids == InstanceIds.REUSED ? 1 : 0, lostCommits,
                consumerFaults, ids, bound, healingSteps);
    }

    public Settings withBound(Duration b) {
        return new Settings(instances, events, aggregates, steps, ticks, crashes, replacements, lostCommits, consumerFaults,
                instanceIds, b, healingSteps);
    }

    public Settings withSize(int instances, int events, int steps) {
        return new Settings(instances, events, aggregates, steps, ticks, crashes, replacements, lostCommits, consumerFaults,
                instanceIds, bound, healingSteps);
    }
}
