package dev.relaycheck.junit;

/**
 * The JUnit Jupiter a team's suite runs relaycheck-junit on. relaycheck-junit takes JUnit from the team (its own
 * dependency on it is {@code provided}), so a version older than it was built and tested for fails a check's first
 * call with one line naming both, not with a linkage error deep in the platform.
 */
final class JUnitVersion {
    /** The oldest JUnit Jupiter supported: the oldest the example suite is run on. */
    static final int[] OLDEST = {5, 11};
    /** The versions the example suite runs on in relaycheck's own build. */
    static final String TESTED = "5.11.4, 5.14.4 and 6.1.3";

    private JUnitVersion() {
    }

    /** Fails with one line when the suite's JUnit Jupiter is older than {@link #OLDEST}. */
    static void require() {
        String running = running();
        if (running != null && tooOld(running)) {
            throw new IllegalStateException(message(running));
        }
    }

    static String message(String running) {
        return "relaycheck-junit needs JUnit Jupiter " + OLDEST[0] + "." + OLDEST[1] + " or newer (tested on " + TESTED
                + "), and this suite runs JUnit Jupiter " + running + ": raise the project's JUnit (junit-bom or junit-jupiter) to "
                + OLDEST[0] + "." + OLDEST[1] + " or newer";
    }

    /** The version in junit-jupiter-api's manifest; null where the classes carry none (a build's own classes folder). */
    static String running() {
        Package api = org.junit.jupiter.api.Test.class.getPackage();
        return api == null ? null : api.getImplementationVersion();
    }

    static boolean tooOld(String version) {
        String[] parts = version.split("[.-]");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major < OLDEST[0] || (major == OLDEST[0] && minor < OLDEST[1]);
        } catch (NumberFormatException e) {
            return false; // a version relaycheck cannot read is not called too old
        }
    }
}
