package dev.relaycheck.stress;

import dev.relaycheck.stress.run.CurriculumOptions;
import dev.relaycheck.stress.run.JCStressRunner;
import dev.relaycheck.stress.run.JcstressReports;
import dev.relaycheck.stress.run.JcstressRow;
import dev.relaycheck.stress.run.JcstressTargets;
import dev.relaycheck.stress.run.Mode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The negative controls: one real jcstress run over the curriculum (forked worker JVMs, the generated
 * runners), then every broken target must have shown a FORBIDDEN outcome and every correct harness none,
 * with each of its witness outcomes seen at least once. Verdicts come from the outcome counts jcstress
 * recorded, never from its exit status (broken targets are supposed to fail it).
 *
 * <p>Defaults keep the run near two minutes on two cores: mode quick, 2 iterations a fork. Override with
 * {@code -Djcstress.mode=default|tough}, {@code -Djcstress.iterations=N} (0: the mode's own),
 * {@code -Djcstress.tests=REGEX}, {@code -Djcstress.jvmMatrix=true}. JcstressReports go to {@code target/jcstress/}.
 */
class NegativeControlsTest {

    static final Path OUT = Path.of("target", "jcstress");
    static List<JcstressRow> verdicts;
    static CurriculumOptions options;

    @BeforeAll
    static void runTheCurriculum() throws Exception {
        options = new CurriculumOptions(Mode.parse(System.getProperty("jcstress.mode", "quick")),
                System.getProperty("jcstress.tests", ".*"), OUT, 2,
                Integer.parseInt(System.getProperty("jcstress.iterations", "2")),
                Boolean.getBoolean("jcstress.jvmMatrix"), false);
        PrintStream console = new PrintStream(Files.newOutputStream(Files.createDirectories(Path.of("target"))
                .resolve("jcstress-suite.log")), true, StandardCharsets.UTF_8);
        verdicts = Curriculum.run(options, console);
    }

    @TestFactory
    Stream<DynamicTest> everyBrokenTargetIsCaughtAndEveryCorrectHarnessPasses() {
        return verdicts.stream().map(v -> DynamicTest.dynamicTest(v.check() + " " + v.target(), () -> {
            // a time-out or a dead fork on a loaded machine is no finding either way: inconclusive, not failed
            org.junit.jupiter.api.Assumptions.assumeFalse(v.inconclusive(), v.detail());
            if (JcstressTargets.isCorrect(v.target())) {
                assertThat(v.verdict()).as("correct logic must pass: %s", v.detail()).isEqualTo("PASS");
            } else {
                assertThat(v.verdict()).as("broken target must show a forbidden outcome: %s", v.detail())
                        .isEqualTo("CAUGHT");
            }
        }));
    }

    @Test
    void everySelectedTestHasAVerdict() {
        assertThat(verdicts).hasSize(JCStressRunner.select(options).size());
    }

    @Test
    void reportsAreWrittenWhereAPersonLooks() throws Exception {
        List<String> tsv = Files.readAllLines(OUT.resolve(JcstressReports.SUMMARY_TSV), StandardCharsets.UTF_8);
        assertThat(tsv.get(0)).isEqualTo("check\ttarget\texpect\tverdict\tdetail");
        assertThat(tsv.subList(1, tsv.size())).isEqualTo(verdicts.stream().map(v -> v.row().tsv()).toList());
        assertThat(OUT.resolve("index.html")).exists();
        assertThat(Files.readAllLines(OUT.resolve(JcstressReports.OUTCOMES_TSV), StandardCharsets.UTF_8).get(0))
                .isEqualTo(JcstressReports.OUTCOMES_HEADER);
        for (String harness : verdicts.stream().map(JcstressRow::check).distinct().toList()) {
            String text = Files.readString(OUT.resolve(harness + ".txt"), StandardCharsets.UTF_8);
            assertThat(text).startsWith(harness + ": ").contains("outcome", "count", "freq", "grade", "samples");
        }
        assertThat(OUT.resolve(JCStressRunner.BLOB)).exists();
        try (Stream<Path> files = Files.list(Path.of("."))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".bin.gz"));
        }
    }
}
