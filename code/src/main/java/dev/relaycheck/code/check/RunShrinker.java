package dev.relaycheck.code.check;

import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.run.RelayRun;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.code.schedule.Choice;
import dev.relaycheck.code.schedule.GivenSchedule;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.model.Invariant;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * Makes a failing run's schedule shorter while it still breaks the same invariant: chunks of the faulty phase's
 * steps are taken out, halving in size (delta debugging), each candidate run with the steps that are no longer
 * enabled passed over; the healing phase follows as always. A fixed number of attempts, so the result does not depend
 * on the machine.
 */
final class RunShrinker {
    private RunShrinker() {
    }

    static RunResult shrink(Supplier<? extends RelayFactory> factories, DbTarget db, Settings settings, RunResult failing,
                            Invariant broken, int attempts) throws SQLException {
        List<Choice> steps = parse(failing.schedule());
        RunResult best = failing;
        int tried = 0;
        for (int size = Math.max(1, steps.size() / 2); size >= 1 && tried < attempts; size = size == 1 ? 0 : size / 2) {
            for (int start = 0; start < steps.size() && tried < attempts; ) {
                List<Choice> candidate = new ArrayList<>(steps.subList(0, start));
                candidate.addAll(steps.subList(Math.min(steps.size(), start + size), steps.size()));
                tried++;
                RunResult r = new RelayRun(factories.get(), db, settings, new GivenSchedule(candidate, true), failing.seed()).run();
                if (r.unfinished() == null && r.findings().stream().anyMatch(f -> f.invariant() == broken)) {
                    best = r;
                    steps = parse(r.schedule());
                } else {
                    start += size;
                }
            }
        }
        return best;
    }

    private static List<Choice> parse(String schedule) {
        return schedule.isBlank() ? List.of() : Arrays.stream(schedule.trim().split("\\s+")).map(Choice::parse).toList();
    }
}
