package dev.relaycheck.jdbc.conformance;

import dev.relaycheck.jdbc.adapter.WallClock;
import dev.relaycheck.jdbc.relay.RelaySpec;
import dev.relaycheck.jdbc.relay.RelayUnderTest;

import java.util.function.Supplier;

/**
 * Finds a Java adapter that reads a clock of its own ({@code System.currentTimeMillis}, {@code Instant.now}, a
 * clock the database reads for it) where no SQL text shows it. Such a relay grants leases that do not follow the
 * logical {@code now} it is given, so it diverges from the model; reporting that as a violation would be a false
 * alarm about a relay relaycheck cannot judge. So before a Java adapter's first failing schedule counts, the same
 * schedule runs again after a pause longer than a second: a relay that only answers to relaycheck's clock fails
 * the same way twice; one that reads the time (to the second or finer) fails differently and is refused with
 * one line, as a relay file that calls {@code now()} is. A clock coarser than the pause, or one whose reading
 * changes nothing the checks see, is not found this way.
 */
final class OwnClock {
    /** Longer than a second, so that a clock read to the second has moved between the two runs. */
    static final long PAUSE_MILLIS = 1_100;

    private OwnClock() {
    }

    /** Whether {@code relay}'s failures need the second run: only a Java adapter can read a clock no SQL shows. */
    static boolean mayReadOwnClock(RelayUnderTest relay) {
        return relay.spec() instanceof RelaySpec.AdapterClass;
    }

    /**
     * Runs the failing schedule again; throws {@link WallClock.ReadException} (one line) when the second run's
     * result differs from {@code first}'s.
     */
    static void requireRepeatable(RelayUnderTest relay, ScheduleResult first, Supplier<ScheduleResult> again) {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        ScheduleResult second = again.get();
        if (!second.equals(first)) {
            throw new WallClock.ReadException(relay.id() + " gave different results for the same schedule run twice"
                    + " (scenario " + first.scenario() + ", walk seed " + first.seed() + "; first " + failure(first)
                    + "; then " + failure(second) + "): it reads a clock of its own (System.currentTimeMillis, Instant.now,"
                    + " the database's) or keeps state that clear() does not reset; relaycheck cannot check a wall-clock"
                    + " relay deterministically; take the time as the now it is given (logical ticks)");
        }
    }

    private static String failure(ScheduleResult r) {
        if (r.divergence() != null) {
            return "diverged at " + r.divergence().summary();
        }
        return r.violation() == null ? "conformed" : r.violation().invariant() + " at step " + r.violationStep();
    }
}
