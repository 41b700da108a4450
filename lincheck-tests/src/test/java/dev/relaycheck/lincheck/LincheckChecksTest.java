package dev.relaycheck.lincheck;

import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every check of {@link Checks} on every one of its targets, with the budget from system properties:
 * the correct store must pass, and every broken target must make Lincheck fail the check with the failure
 * the check looks for (the negative controls). Reports land in target/lincheck-results/ (the pom sets -Dlincheck.results), never in results/.
 * {@code -Dlincheck.only=CHECK[/TARGET]} runs a part. By default each check runs the correct store and the few
 * broken targets of {@link #DEFAULT_TARGETS}, and the relay protocol explores {@link #DEFAULT_PROTOCOL_INVOCATIONS}
 * interleavings; {@code -Drelaycheck.long=true} runs every target with the full budget.
 */
class LincheckChecksTest {
    private static final String ONLY = System.getProperty("lincheck.only", "").strip();
    private static final boolean LONG = Boolean.getBoolean("relaycheck.long");
    /** Per check: the correct store, a broken store, and broken logics that break different invariants. */
    static final Map<String, Set<String>> DEFAULT_TARGETS = Map.of(
            "linearizability-model-checking", Set.of("correct", "check-then-act-claim-store", "ack-ignores-token",
                    "no-head-of-aggregate", "marker-before-effect"),
            "linearizability-stress", Set.of("correct", "claim-ignores-lease", "no-dedup-marker"),
            "relay-protocol", Set.of("correct", "check-then-insert-dedup-store"));
    static final int DEFAULT_PROTOCOL_INVOCATIONS = 200;
    private static final CheckRunner RUNNER = new CheckRunner(budget(), ResultFiles.locate());
    private static final List<LincheckResult> RESULTS = new ArrayList<>();

    private static LincheckBudget budget() {
        LincheckBudget b = LincheckBudget.fromSystemProperties();
        if (LONG || !System.getProperty("lincheck.protocol.invocations", "").isBlank()) {
            return b;
        }
        return new LincheckBudget(b.iterations(), b.invocations(), b.actorsPerThread(), b.actorsBefore(), b.actorsAfter(),
                b.stressIterations(), b.stressInvocations(), DEFAULT_PROTOCOL_INVOCATIONS, b.hazards());
    }

    @Test
    void theDefaultTargetsAreTargetsOfTheirChecks() {
        DEFAULT_TARGETS.forEach((check, targets) -> assertThat(Checks.select(check).stream().map(p -> p.target().id()))
                .as(check).containsAll(targets));
    }

    @TestFactory
    Stream<DynamicTest> linearizabilityUnderModelChecking() {
        return tests("linearizability-model-checking", LincheckFailures.NON_LINEARIZABLE);
    }

    @TestFactory
    Stream<DynamicTest> linearizabilityUnderStress() {
        return tests("linearizability-stress", LincheckFailures.NON_LINEARIZABLE);
    }

    @TestFactory
    Stream<DynamicTest> relayProtocolUnderTheGeneralModelChecker() {
        return tests("relay-protocol", LincheckFailures.CONCURRENT_TEST_FAILED);
    }

    private static Stream<DynamicTest> tests(String checkId, String lincheckHeadline) {
        return Checks.select(ONLY.isEmpty() ? checkId : ONLY).stream()
                .filter(p -> p.check().id().equals(checkId))
                .filter(p -> LONG || !ONLY.isEmpty() || DEFAULT_TARGETS.get(checkId).contains(p.target().id()))
                .map(p -> DynamicTest.dynamicTest(p.target().id() + " " + p.target().expect(), () -> {
                    CheckRunner.Ran ran = RUNNER.run(p);
                    LincheckResult r = ran.result();
                    synchronized (RESULTS) {
                        RESULTS.add(r);
                    }
                    String rerun = ResultFiles.rerunCommand(p.check().id(), p.target().id(), RUNNER.budget());
                    if (p.target().isCorrect()) {
                        // reported hung on every try: Lincheck's hang detection is time-based, so the run proved nothing
                        // either way; it is reported as aborted (inconclusive), never as a pass or a failure
                        Assumptions.assumeFalse(r.inconclusive(), () -> "inconclusive: " + r.detail());
                        assertThat(r.verdict()).as("%s; trace: %s; rerun: %s", r.detail(), ran.report(), rerun).isEqualTo("PASS");
                    } else {
                        assertThat(r.verdict()).as("%s; rerun: %s", r.detail(), rerun).isEqualTo("CAUGHT");
                        assertThat(r.outcome().report()).as("Lincheck's failure text").contains(lincheckHeadline);
                        if (lincheckHeadline.equals(LincheckFailures.CONCURRENT_TEST_FAILED)) {
                            // the first invariant the round trips over; a double claim can show as a stale ack
                            assertThat(Arrays.stream(Invariant.values()).map(i -> i.name() + ":"))
                                    .as("the protocol names the invariant that broke: %s", r.detail())
                                    .anyMatch(r.detail()::startsWith);
                        }
                        assertThat(ran.report()).as("report file").isNotNull().exists();
                    }
                }));
    }

    /** A full run rewrites summary.tsv, exactly as the main entry does. */
    @AfterAll
    static void writeSummary() {
        if (ONLY.isEmpty() && RESULTS.size() == Checks.select("").size()) {
            RUNNER.files().writeSummary(RESULTS);
        }
    }
}
