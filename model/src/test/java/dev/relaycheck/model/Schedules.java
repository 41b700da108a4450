package dev.relaycheck.model;

import java.util.Arrays;
import java.util.List;

/** Test helper: schedules written the way traces print them. */
final class Schedules {
    private Schedules() {
    }

    static List<Step> of(String... steps) {
        return Arrays.stream(steps).map(Step::parse).toList();
    }
}
