package dev.relaycheck.junit;

import dev.relaycheck.model.command.ShellWords;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a replay line from a failure message as a person would paste it: the relaycheck CLI in a child JVM
 * (this test's class path, which holds relaycheck's classes), the line's arguments split as the shell would.
 */
final class ReplayInCli {
    /** Exit code and everything the CLI printed. */
    record Run(int exit, String output) {
    }

    private ReplayInCli() {
    }

    static Run run(String failureMessage) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("(?:replay|relaycheck CLI): \\./relaycheck (.*)").matcher(failureMessage);
        if (!m.find()) {
            throw new AssertionError("no replay line in: " + failureMessage);
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.relaycheck.checker.cli.RelaycheckCli"));
        cmd.addAll(ShellWords.split(m.group(1).strip()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the replay did not end");
        }
        return new Run(p.exitValue(), out);
    }
}
