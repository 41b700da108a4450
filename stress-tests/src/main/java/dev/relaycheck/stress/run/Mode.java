package dev.relaycheck.stress.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How hard jcstress works. {@code quick} is what the build runs: jcstress's quick preset (5 iterations of
 * 200 ms a fork) in one JVM configuration (plain tiered compilation; on JDK 17 jcstress still doubles it
 * with and without biased locking), without split compilation or heap pre-touch, so one harness costs a few
 * seconds. {@code default} and {@code tough} are jcstress's own presets over its full matrix of JVM
 * configurations (interpreter, C1, C2, C2 stress), for an on-demand soak: minutes per harness.
 */
public enum Mode {
    QUICK("-m", "quick", "-sc", "false", "-pth", "false", "-jvmArgs", "-Xmx256m"),
    DEFAULT("-m", "default"),
    TOUGH("-m", "tough");

    private final List<String> jcstressArgs;

    Mode(String... jcstressArgs) {
        this.jcstressArgs = List.of(jcstressArgs);
    }

    public List<String> jcstressArgs() {
        return new ArrayList<>(jcstressArgs);
    }

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
        throw new UsageException("unknown mode '" + s + "' (expected quick, default or tough)");
    }
}
