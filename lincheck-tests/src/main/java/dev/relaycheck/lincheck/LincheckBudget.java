package dev.relaycheck.lincheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * How much each check explores. Every value has a small default (the module's whole test run stays within
 * a few minutes on two cores) and a system property to raise it, e.g. {@code -Dlincheck.iterations=200}.
 * A blank property means the default, so a build tool can always pass {@code -Dlincheck.x=${lincheck.x}}.
 *
 * @param iterations          random scenarios per model-checking run ({@code lincheck.iterations})
 * @param invocations         interleavings explored per model-checking scenario ({@code lincheck.invocations})
 * @param actorsPerThread     operations per thread in a random scenario ({@code lincheck.actorsPerThread})
 * @param actorsBefore        operations run before the parallel part ({@code lincheck.actorsBefore})
 * @param actorsAfter         operations run after the parallel part ({@code lincheck.actorsAfter})
 * @param stressIterations    random scenarios per stress run ({@code lincheck.stress.iterations})
 * @param stressInvocations   real-thread runs per stress scenario ({@code lincheck.stress.invocations})
 * @param protocolInvocations interleavings of the relay protocol ({@code lincheck.protocol.invocations})
 * @param hazards             whether the hand-written hazard scenarios run before the random ones
 *                            ({@code lincheck.hazards}); false measures what random generation finds alone
 */
public record LincheckBudget(int iterations, int invocations, int actorsPerThread, int actorsBefore, int actorsAfter,
                             int stressIterations, int stressInvocations, int protocolInvocations, boolean hazards) {

    public static final LincheckBudget DEFAULT = new LincheckBudget(20, 50, 3, 2, 1, 10, 200, 600, true);

    public LincheckBudget {
        positive("lincheck.iterations", iterations);
        positive("lincheck.invocations", invocations);
        positive("lincheck.actorsPerThread", actorsPerThread);
        nonNegative("lincheck.actorsBefore", actorsBefore);
        nonNegative("lincheck.actorsAfter", actorsAfter);
        positive("lincheck.stress.iterations", stressIterations);
        positive("lincheck.stress.invocations", stressInvocations);
        positive("lincheck.protocol.invocations", protocolInvocations);
    }

    /** The budget from the JVM's system properties. */
    public static LincheckBudget fromSystemProperties() {
        return from(System.getProperties());
    }

    /** The budget from {@code props}; throws IllegalArgumentException with one clear line on a bad value. */
    public static LincheckBudget from(Properties props) {
        LincheckBudget d = DEFAULT;
        return new LincheckBudget(
                integer(props, "lincheck.iterations", d.iterations),
                integer(props, "lincheck.invocations", d.invocations),
                integer(props, "lincheck.actorsPerThread", d.actorsPerThread),
                integer(props, "lincheck.actorsBefore", d.actorsBefore),
                integer(props, "lincheck.actorsAfter", d.actorsAfter),
                integer(props, "lincheck.stress.iterations", d.stressIterations),
                integer(props, "lincheck.stress.invocations", d.stressInvocations),
                integer(props, "lincheck.protocol.invocations", d.protocolInvocations),
                bool(props, "lincheck.hazards", d.hazards));
    }

    /** The {@code -D} options that reproduce this budget, only those that differ from the default, in a fixed order. */
    public List<String> overrides() {
        List<String> out = new ArrayList<>();
        LincheckBudget d = DEFAULT;
        add(out, "lincheck.iterations", iterations, d.iterations);
        add(out, "lincheck.invocations", invocations, d.invocations);
        add(out, "lincheck.actorsPerThread", actorsPerThread, d.actorsPerThread);
        add(out, "lincheck.actorsBefore", actorsBefore, d.actorsBefore);
        add(out, "lincheck.actorsAfter", actorsAfter, d.actorsAfter);
        add(out, "lincheck.stress.iterations", stressIterations, d.stressIterations);
        add(out, "lincheck.stress.invocations", stressInvocations, d.stressInvocations);
        add(out, "lincheck.protocol.invocations", protocolInvocations, d.protocolInvocations);
        add(out, "lincheck.hazards", hazards, d.hazards);
        return out;
    }

    @Override
    public String toString() {
        return "model checking " + iterations + " random scenarios x " + invocations + " invocations ("
                + actorsBefore + " before, 2 threads x " + actorsPerThread + ", " + actorsAfter + " after)"
                + (hazards ? " after the " + HazardScenarios.ALL.size() + " hazard scenarios" : ", no hazard scenarios")
                + "; stress " + stressIterations + " x " + stressInvocations
                + "; protocol " + protocolInvocations + " invocations";
    }

    private static void add(List<String> out, String name, Object value, Object dflt) {
        if (!value.equals(dflt)) {
            out.add("-D" + name + "=" + value);
        }
    }

    private static int integer(Properties props, String name, int dflt) {
        String v = props.getProperty(name, "").trim();
        if (v.isEmpty()) {
            return dflt;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, got '" + v + "'");
        }
    }

    private static boolean bool(Properties props, String name, boolean dflt) {
        String v = props.getProperty(name, "").trim();
        if (v.isEmpty()) {
            return dflt;
        }
        if (v.equals("true") || v.equals("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException(name + " must be true or false, got '" + v + "'");
    }

    private static void positive(String name, int v) {
        if (v < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, got " + v);
        }
    }

    private static void nonNegative(String name, int v) {
        if (v < 0) {
            throw new IllegalArgumentException(name + " must be at least 0, got " + v);
        }
    }
}
