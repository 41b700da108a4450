package dev.relaycheck.stress.run;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The main entry as a user runs it: bad input is one line on stderr and exit status 2, before any jcstress work. */
class CurriculumCliTest {

    private static Result curriculum(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                "-cp", System.getProperty("java.class.path"), "dev.relaycheck.stress.Curriculum"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    record Result(int status, String out, String err) {
    }

    @Test
    void anUnknownModeExitsTwoWithOneLine() throws Exception {
        Result r = curriculum("--mode", "fast");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("relaycheck jcstress: unknown mode 'fast' (expected quick, default or tough)\n");
    }

    @Test
    void aRegexThatMatchesNoHarnessExitsTwoWithOneLine() throws Exception {
        Result r = curriculum("--tests", "NoSuchHarness", "--out", "target/cli-test");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err().lines().toList()).containsExactly(
                "relaycheck jcstress: no curriculum test matches --tests NoSuchHarness (java -jar jcstress.jar -l lists them)");
    }
}
