package dev.relaycheck.checker.report;

import dev.relaycheck.code.check.CodeCheck;
import dev.relaycheck.model.UserClassLoader;
import dev.relaycheck.model.command.Launcher;
import dev.relaycheck.model.command.ShellWords;

import java.util.ArrayList;
import java.util.List;

/** The {@code relaycheck code replay} line of a failure of a relay's own code, pasteable as printed. */
public final class CodeReplay {
    private CodeReplay() {
    }

    /** For a relay given by its factory and class path; {@code extra} are the options that shaped the run's world. */
    public static String line(String factory, String classpath, List<String> extra, String db, CodeCheck.Failure f) {
        List<String> a = new ArrayList<>(List.of("code", "replay", "--relay", factory));
        if (classpath != null && !classpath.isBlank()) {
            a.addAll(List.of("--classpath", UserClassLoader.absolute(classpath)));
        }
        a.addAll(extra);
        a.addAll(List.of("--db", db));
        a.addAll(f.shrunk() ? List.of("--strategy", "schedule", "--schedule", f.result().schedule())
                : List.of("--strategy", f.run().strategy(), "--seed", String.valueOf(f.run().seed())));
        return Launcher.typed() + " " + ShellWords.join(a);
    }
}
