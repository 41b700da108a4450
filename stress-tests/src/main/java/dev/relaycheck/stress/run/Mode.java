package dev.relaycheck.stress.run;

import java.util.Locale;

/**
 * How hard jcstress works: its own presets. {@code quick} (5 iterations of 200 ms a fork) is what the build
 * runs; {@code default} (5 iterations of 1 s) and {@code tough} (10 forks of 10 iterations of 1 s) are for an
 * on-demand soak. Each runs in one JVM configuration unless {@code --jvm-matrix} asks for jcstress's full
 * matrix (interpreter, C1, C2, C2 stress, split compilation), which multiplies the time by about ten.
 */
public enum Mode {
    QUICK,
    DEFAULT,
    TOUGH;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code quick}, {@code default} or {@code tough}. */
    public static Mode parse(String s) {
        for (Mode m : values()) {
            if (m.id().equals(s)) {
                return m;
            }
        }
        throw new JcstressUsageException("unknown mode '" + s + "' (expected quick, default or tough)");
    }
}
