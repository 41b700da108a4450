package dev.relaycheck.code.control;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The relay's {@link Clock}: it stands still until relaycheck moves it (a Tick), whatever unit the relay reads. */
public final class ControlledClock extends Clock {
    private final ZoneId zone;
    private volatile Instant now;

    public ControlledClock(Instant start) {
        this(start, ZoneOffset.UTC);
    }

    private ControlledClock(Instant start, ZoneId zone) {
        this.now = start;
        this.zone = zone;
    }

    public void moveTo(Instant later) {
        if (later.isBefore(now)) {
            throw new IllegalArgumentException("time does not go back: " + later + " is before " + now);
        }
        now = later;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId z) {
        ControlledClock parent = this;
        return new Clock() { // the same time, seen in another zone
            @Override
            public ZoneId getZone() {
                return z;
            }

            @Override
            public Clock withZone(ZoneId other) {
                return parent.withZone(other);
            }

            @Override
            public Instant instant() {
                return parent.instant();
            }
        };
    }

    @Override
    public Instant instant() {
        return now;
    }
}
