package dev.relaycheck.jdbc.race;

import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.jdbc.world.Action;

import java.util.ArrayList;
import java.util.List;

/**
 * Every step of a race in the order its thread recorded it, right after its commit: what a finding's swimlane shows.
 * Between commits nobody reads the tables (that would be one more thread in the race), so the steps carry no state.
 */
final class RaceLog {
    private final List<SqlFinding.Observed> steps = new ArrayList<>();

    synchronized void add(Action a, String phase) {
        steps.add(SqlFinding.Observed.of(a, null, null, phase));
    }

    synchronized List<SqlFinding.Observed> steps() {
        return List.copyOf(steps);
    }
}
