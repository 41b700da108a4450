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
 * <p>By default it runs {@link #DEFAULT_TESTS}, six targets of four harnesses (correct logic, broken logics, a broken
 * store, a broken producer), in mode quick with 2 iterations a fork; {@code -Drelaycheck.long=true}
 * runs the whole curriculum. Override with {@code -Djcstress.tests=REGEX}, {@code -Djcstress.mode=default|tough},
 * {@code -Djcstress.iterations=N} (0: the mode's own), {@code -Djcstress.jvmMatrix=true}. Reports go to
 * {@code target/jcstress/}.
 */
class NegativeControlsTest {

    static final Path OUT = Path.of("target", "jcstress");
    /** Each forked jcstress test costs seconds: by default a few, with a broken logic, store and producer among them. */
    static final String DEFAULT_TESTS = "Lease_01_DoubleClaim\\.(Correct|CheckThenActClaimStore)$"
            + "|Lease_02_StaleAckAfterExpiry\\.AckIgnoresToken$"
            + "|Relay_01_DuplicateDelivery\\.(Correct|NoDedupMarker)$"
            + "|Produce_01_Atomicity\\.OutboxOutsideTransaction$";
    static List<JcstressRow> verdicts;
    static CurriculumOptions options;

    @BeforeAll
    static void runTheCurriculum() throws Exception {
        options = new CurriculumOptions(Mode.parse(System.getProperty("jcstress.mode", "quick")),
                tests(), OUT, 2,
                Integer.parseInt(System.getProperty("jcstress.iterations", "2")),
                Boolean.getBoolean("jcstress.jvmMatrix"), false);
        PrintStream console = new PrintStream(Files.newOutputStream(Files.createDirectories(Path.of("target"))
                .resolve("jcstress-suite.log")), true, StandardCharsets.UTF_8);
        verdicts = Curriculum.run(options, console);
    }

    static String tests() {
        String tests = System.getProperty("jcstress.tests", "").strip();
        return !tests.isEmpty() ? tests : Boolean.getBoolean("relaycheck.long") ? ".*" : DEFAULT_TESTS;
    }

    @Test
    void theDefaultSelectionHoldsACorrectHarnessAndABrokenLogicStoreAndProducer() {
        List<String> targets = JCStressRunner.select(new CurriculumOptions(Mode.QUICK, DEFAULT_TESTS, OUT, 2, 0, false, false))
                .stream().map(t -> JcstressTargets.targetOf(t.substring(t.lastIndexOf('.') + 1))).toList();
        assertThat(targets).containsExactlyInAnyOrder("correct", "check-then-act-claim-store", "ack-ignores-token",
                "correct", "no-dedup-marker", "outbox-outside-transaction");
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
