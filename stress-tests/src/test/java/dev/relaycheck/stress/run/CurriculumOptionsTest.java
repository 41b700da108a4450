package dev.relaycheck.stress.run;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CurriculumOptionsTest {

    @Test
    void defaultsAreQuickEverythingIntoResultsJcstress() {
        CurriculumOptions o = CurriculumOptions.parse(new String[0]);
        assertThat(o).isEqualTo(new CurriculumOptions(Mode.QUICK, ".*", Path.of("results/jcstress"), 2, 0, false, false));
        assertThat(JCStressRunner.jcstressArgs(o)).containsExactly("-m", "quick", "-sc", "false", "-pth", "false",
                "-jvmArgs", "-Xmx256m", "-c", "2", "-t", "^(?!.*\\.User$)(?=.*(?:.*))", "-r", "results/jcstress");
    }

    @Test
    void everyFlagParses() {
        CurriculumOptions o = CurriculumOptions.parse(new String[]{"--mode", "tough", "--tests", "Lease_0[12]",
                "--out", "target/x", "--cpus", "4", "--iterations", "3", "--jvm-matrix", "--verbose"});
        assertThat(o).isEqualTo(new CurriculumOptions(Mode.TOUGH, "Lease_0[12]", Path.of("target/x"), 4, 3, true, true));
        assertThat(JCStressRunner.jcstressArgs(o)).containsExactly("-m", "tough", "-c", "4", "-t",
                "^(?!.*\\.User$)(?=.*(?:Lease_0[12]))", "-r", "target/x", "-iters", "3");
        assertThat(JCStressRunner.jcstressArgs(CurriculumOptions.parse(new String[]{"--mode", "default"})))
                .containsExactly("-m", "default", "-sc", "false", "-pth", "false", "-jvmArgs", "-Xmx256m",
                        "-c", "2", "-t", "^(?!.*\\.User$)(?=.*(?:.*))", "-r", "results/jcstress");
    }

    @Test
    void badInputIsOneClearMessage() {
        List.of(new String[]{"--mode", "fast"}, new String[]{"--tests", "Lease_0[1"}, new String[]{"--cpus", "1"},
                new String[]{"--cpus", "two"}, new String[]{"--out"}, new String[]{"--frobnicate"},
                new String[]{"--iterations", "-1"}).forEach(args ->
                assertThatThrownBy(() -> CurriculumOptions.parse(args)).isInstanceOf(JcstressUsageException.class)
                        .message().doesNotContain("\n"));
        assertThatThrownBy(() -> CurriculumOptions.parse(new String[]{"--mode", "fast"}))
                .hasMessage("unknown mode 'fast' (expected quick, default or tough)");
    }
}
