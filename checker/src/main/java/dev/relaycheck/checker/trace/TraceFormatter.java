package dev.relaycheck.checker.trace;

import java.util.List;

/** Renders a counterexample as the numbered text trace a person reads in a terminal. */
public final class TraceFormatter {
    private TraceFormatter() {
    }

    public static String format(Counterexample cx) {
        StringBuilder b = heading(cx);
        if (cx.isLiveness()) {
            b.append(", then the fault-free healing phase");
        }
        b.append('\n');
        b.append(String.format("  %3s  %-8s  %-26s  %-40s  %s%n", "#", "actor", "step", "outcome", "state that changed"));
        List<TraceStep> trace = cx.trace();
        boolean healingHeader = false;
        for (int i = 0; i < trace.size(); i++) {
            TraceStep t = trace.get(i);
            if (t.healing() && !healingHeader) {
                b.append("  -- healing: faults stop, pollers run round-robin, the clock moves when nobody can act --\n");
                healingHeader = true;
            }
            int run = TraceStep.healingTicksFrom(trace, i);
            if (t.healing() && run > 3) {
                TraceStep last = trace.get(i + run - 1);
                b.append(String.format("  %3d  %-8s  %-26s  %-40s  %s%n", t.number(), "clock", "Tick x" + run,
                        "TICKED now=" + last.after().clock(), "clock " + t.before().clock() + "->" + last.after().clock()));
                i += run - 1;
                continue;
            }
            boolean culprit = !cx.isLiveness() && i == trace.size() - 1;
            b.append(String.format("  %3d  %-8s  %-26s  %-40s  %s%s%n", t.number(), t.step().actor(), t.step(),
                    t.outcome(), String.join("; ", StateDiff.of(cx.scenario(), t.before(), t.after())),
                    culprit ? "   <== " + cx.invariant() : ""));
        }
        if (cx.isLiveness()) {
            b.append("  end state is not complete: ").append(cx.violation().detail()).append("   <== EVENTUAL_DELIVERY\n");
        }
        return b.toString();
    }

    /**
     * A counterexample whose steps are those of {@code shown}, printed just before: its heading, and a line saying
     * so instead of the steps (one step may break several invariants).
     */
    public static String formatSameSteps(Counterexample cx, Counterexample shown) {
        return heading(cx).append(", the same as ").append(shown.invariant()).append("'s above: its last step breaks both\n")
                .toString();
    }

    /** Which invariant broke where, what broke, what it requires, who found it and in how many steps, the line left open. */
    private static StringBuilder heading(Counterexample cx) {
        StringBuilder b = new StringBuilder();
        b.append("VIOLATION ").append(cx.invariant()).append(" in scenario ").append(cx.scenario().name())
                .append(" with logic ").append(cx.logic().id()).append('\n');
        b.append("  what broke: ").append(cx.violation().detail()).append('\n');
        b.append("  invariant:  ").append(cx.invariant().message()).append('\n');
        b.append("  found by:   ").append(cx.foundBy());
        cx.seed().ifPresent(seed -> b.append(" (seed ").append(seed).append(')'));
        b.append(", ").append(cx.path().size()).append(" steps");
        return b;
    }
}
