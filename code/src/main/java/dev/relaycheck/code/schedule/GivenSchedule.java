package dev.relaycheck.code.schedule;

import java.util.Arrays;
import java.util.List;

/**
 * A schedule given as text (a replay line's {@code --schedule}): each step as written, in order. A step that is not
 * enabled where the schedule puts it means the relay did something else than when the schedule was written.
 */
public final class GivenSchedule implements Strategy {
    private final List<Choice> steps;
    private final boolean lenient;
    private int next;

    public GivenSchedule(String text) {
        this(text.isBlank() ? List.of() : Arrays.stream(text.trim().split("\\s+")).map(Choice::parse).toList(), false);
    }

    /**
     * {@code steps} in order; when {@code lenient}, a step not enabled where it comes is passed over (a shrinker's
     * candidate, with some steps taken out, is still a schedule).
     */
    public GivenSchedule(List<Choice> steps, boolean lenient) {
        this.steps = List.copyOf(steps);
        this.lenient = lenient;
    }

    public int length() {
        return steps.size();
    }

    @Override
    public Choice pick(List<Choice> enabled, int step) {
        while (next < steps.size()) {
            Choice c = steps.get(next++);
            if (enabled.contains(c)) {
                return c;
            }
            if (!lenient) {
                throw new Diverged(next - 1, c, enabled);
            }
        }
        return null;
    }

    @Override
    public String name() {
        return "schedule";
    }

    /** The schedule's step is not one the run can take there: the relay behaves differently now. */
    public static final class Diverged extends RuntimeException {
        public Diverged(int step, Choice wanted, List<Choice> enabled) {
            super("step " + (step + 1) + " of the schedule is '" + wanted + "', but there the run could only take "
                    + enabled.stream().map(Choice::toString).toList());
        }
    }
}
