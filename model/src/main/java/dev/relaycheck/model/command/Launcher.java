package dev.relaycheck.model.command;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How the user started relaycheck, as every printed replay line starts, so the line pastes as is from the folder it
 * ran in: the launcher as typed (the launcher script passes its $0 as {@value #PROPERTY}), else {@code java -jar} and
 * the jar's absolute path when the CLI was started that way, else {@code ./relaycheck}.
 */
public final class Launcher {
    public static final String PROPERTY = "relaycheck.command";

    private Launcher() {
    }

    /** The launcher, quoted for the shell. */
    public static String typed() {
        String typed = System.getProperty(PROPERTY);
        if (typed != null) {
            return ShellWords.quote(typed);
        }
        return startedAsJar().map(jar -> "java -jar " + ShellWords.quote(jar.toString())).orElse("./relaycheck");
    }

    /** The jar this class is in, where this JVM was started with {@code java -jar} on it (not a test runner's jar). */
    private static Optional<Path> startedAsJar() {
        String first = System.getProperty("sun.java.command", "").split(" ", 2)[0];
        if (!first.endsWith(".jar")) {
            return Optional.empty();
        }
        try {
            Path self = Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toAbsolutePath().normalize();
            return Path.of(first).toAbsolutePath().normalize().equals(self) ? Optional.of(self) : Optional.empty();
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty(); // no code source to name: the default launcher
        }
    }
}
