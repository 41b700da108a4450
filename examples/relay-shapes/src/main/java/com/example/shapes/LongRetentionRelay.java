package com.example.shapes;

import java.util.OptionalInt;

/** The consumer's inbox keeps dedup markers for fifty leases, then its cleanup purges them. */
public class LongRetentionRelay extends LeasedOutbox {
    @Override
    public String id() {
        return "long-retention";
    }

    @Override
    public String description() {
        return "dedup markers kept for fifty leases";
    }

    @Override
    public OptionalInt markerRetention(int leaseTicks) {
        return OptionalInt.of(50 * leaseTicks);
    }
}
