package dev.relaycheck.jdbc.result;

import dev.relaycheck.jdbc.world.Action;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Step;

import java.util.List;

/**
 * One finding of a SQL check, with what the report needs to draw it as a swimlane: the invariant, the steps the
 * relay took with the state read back from the tables around each, and the line that replays it.
 *
 * @param check   sql-conformance, sql-race or sql-crash-kill
 * @param target  the relay under test's id or a broken SQL variant's
 * @param db      the database kind (h2, postgres)
 * @param title   the invariant broken, or what went wrong when none was ({@code diverged from the model})
 * @param detail  what broke, in the invariant's words
 * @param actors  the pollers, in lane order
 * @param rows    the outbox rows to draw as lanes, empty for every row (a race's 48 rows would not fit a page)
 * @param steps   the steps in the order they committed; a step's states are null where nobody could read them (a
 *                child JVM's steps before it was killed, a race's threads between their commits)
 * @param culprit the index in {@code steps} of the step that broke the invariant, or -1 when the state at the end did
 * @param how     how the steps were observed, for the caption (a race's order is the order its commits were recorded)
 * @param replay  the command that runs it again
 */
public record SqlFinding(String check, String target, String db, String title, String detail, List<String> actors,
                         List<String> rows, List<Observed> steps, int culprit, String how, String replay) {
    public SqlFinding {
        actors = List.copyOf(actors);
        rows = List.copyOf(rows);
        steps = List.copyOf(steps);
    }

    /**
     * One step as the SQL side took it.
     *
     * @param step    the step in the model's terms
     * @param outcome what it did, as {@link dev.relaycheck.model.Outcome#toString()} (a child JVM reports it as text)
     * @param kind    the outcome's kind (APPLIED, DUPLICATE, ...)
     * @param before  the state read back before it, or null when not observed
     * @param after   the state read back after it, or null when not observed
     * @param phase   where it ran: {@code schedule}, {@code healing}, {@code child} (killed later), {@code kill},
     *                {@code recovery}, {@code race}, {@code end}
     */
    public record Observed(Step step, String outcome, String kind, RelayState before, RelayState after, String phase) {
        public static Observed of(Action a, RelayState before, RelayState after, String phase) {
            return new Observed(a.step(), a.outcome().toString(), a.outcome().kind(), before, after, phase);
        }

        /** A healing step that did nothing: a Tick, or a claim that found nothing (a stuck relay heals on them). */
        public boolean idle() {
            return phase.equals("healing") && (step instanceof Step.Tick || outcome.equals(NOTHING_CLAIMED));
        }

        private static final String NOTHING_CLAIMED = new dev.relaycheck.model.Outcome.Claimed(List.of()).toString();
    }

    /** The steps as text, one numbered line each, a run of idle healing steps as one: the trace beside the swimlane. */
    public String trace() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            Observed s = steps.get(i);
            int run = 0;
            while (i + run < steps.size() && steps.get(i + run).idle()) {
                run++;
            }
            if (run > 1) {
                b.append(String.format("%3d %-9s %d idle steps (claims that found nothing, Ticks) to %s%n", i + 1, s.phase(), run,
                        steps.get(i + run - 1).outcome()));
                i += run - 1;
                continue;
            }
            b.append(String.format("%3d %-9s %s -> %s%s%n", i + 1, s.phase(), s.step(), s.outcome(),
                    i == culprit ? "   <== " + title : ""));
        }
        return b.toString();
    }
}
