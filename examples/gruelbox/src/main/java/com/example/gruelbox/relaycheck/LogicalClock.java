package com.example.gruelbox.relaycheck;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * relaycheck's logical clock as the {@link Clock} gruelbox reads ({@code clockProvider}): tick {@code t} is the
 * instant {@code t} seconds after the epoch. The adapter sets it to relaycheck's {@code now} before every call
 * into gruelbox, so no lease in the check ever depends on the wall clock.
 */
final class LogicalClock extends Clock {
    /** One logical tick. */
    static final long TICK_MILLIS = 1000;

    private volatile long tick;

    void set(int now) {
        tick = now;
    }

    static Instant at(long tick) {
        return Instant.ofEpochMilli(tick * TICK_MILLIS);
    }

    /** The tick of an instant gruelbox wrote, rounded down. */
    static int tickOf(Instant instant) {
        return Math.toIntExact(Math.floorDiv(instant.toEpochMilli(), TICK_MILLIS));
    }

    @Override
    public Instant instant() {
        return at(tick);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
