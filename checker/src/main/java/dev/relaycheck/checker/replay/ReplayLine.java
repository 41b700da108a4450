package dev.relaycheck.checker.replay;

import dev.relaycheck.checker.logic.LogicFault;
import dev.relaycheck.checker.logic.LogicLoader;
import dev.relaycheck.checker.trace.Counterexample;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Optional;


/**
 * The command line that replays a counterexample, pasteable as is: it starts with the launcher as the user
 * typed it (the launcher passes its $0 as {@value #COMMAND_PROPERTY}; {@code java -jar} and the jar's absolute
 * path when the CLI was started that way; ./relaycheck otherwise), and a user's logic needs the --classpath it was
 * loaded with (as the user gave it, quoted for the shell when it has to be).
 */
public final class ReplayLine {
    static final String COMMAND_PROPERTY = "relaycheck.command";

    private ReplayLine() {
    }

    public static String of(Counterexample cx) {
        return of(ReplayRecord.of(cx), cx.logic());
    }

    /** The line that replays a logic fault up to where the logic failed. */
    public static String of(LogicFault fault) {
        return of(ReplayRecord.of(fault), fault.logic());
    }

    /** The line that replays {@code record} of {@code logic} (a record of the regression corpus). */
    public static String of(ReplayRecord record, dev.relaycheck.model.RelayLogic logic) {
        String line = launcher() + " replay " + record.toToken();
        return LogicLoader.classpathOf(logic).map(cp -> line + " --classpath " + ShellWords.quote(cp)).orElse(line);
    }

    /** The launcher as the user typed it, quoted for the shell: what every replay line starts with. */
    public static String launcher() {
        String typed = System.getProperty(COMMAND_PROPERTY);
        if (typed != null) {
            return ShellWords.quote(typed);
        }
        return startedAsJar().map(jar -> "java -jar " + ShellWords.quote(jar.toString())).orElse("./relaycheck");
    }

    /** The jar this class is in, where this JVM was started with {@code java -jar} on it (not a test runner's jar). */
    private static Optional<Path> startedAsJar() {
        String command = System.getProperty("sun.java.command", "");
        try {
            Path self = Path.of(ReplayLine.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
            String first = command.split(" ", 2)[0];
            if (first.endsWith(".jar") && Path.of(first).toAbsolutePath().normalize().equals(self.normalize())) {
                return Optional.of(self.normalize());
            }
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty(); // no code source to name: the default launcher
        }
        return Optional.empty();
    }
}
