package dev.relaycheck.junit;

import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.testsupport.UserJar;
import dev.relaycheck.model.testsupport.UsersLogics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link ModelChecker} on logics a team wrote, compiled here into a jar outside the project: the verdicts and the
 * sentences the CLI gives ({@code UserLogicVerdictsCliTest}), in a test. A relay that re-claims its own leases passes
 * with unique instance ids and fails, saying why, with shared ones; a deliver-and-ack relay is not VACUOUS for what its
 * shape cannot reach; two mistakes are both reported; a decision that never returns fails the test within the limit
 * given; a {@code System.exit} from a decision ends the test JVM with one line and exit 6, not the code it asked for.
 */
class UserLogicModelCheckerTest {
    /** What a team's test does, as a program: the model check of its logic, asserting it passes. */
    private static final String CHECKS_IN_MAIN = """
            package com.team;
            public final class ChecksItsLogic {
                public static void main(String[] args) throws Exception {
                    Class<?> logic = Class.forName("com.acme.ExitsOnAck"); // from the logics' jar, on the class path
                    dev.relaycheck.junit.ModelChecker.of(logic.asSubclass(dev.relaycheck.model.RelayLogic.class))
                            .scenarios("event-61-lost-ack").check().assertPassed();
                    System.out.println("the check returned");
                }
            }
            """;

    @TempDir
    static Path dir;
    private static Path jar;
    private static Path main; // a team's program that runs the check
    private static URLClassLoader loader;

    @BeforeAll
    static void compile() throws Exception {
        jar = UsersLogics.jar(dir);
        main = UserJar.compile(dir, "team", Map.of("com.team.ChecksItsLogic", CHECKS_IN_MAIN));
        loader = new URLClassLoader(new URL[]{jar.toUri().toURL()}, UserLogicModelCheckerTest.class.getClassLoader());
    }

    private static RelayLogic load(String name) throws Exception {
        return (RelayLogic) loader.loadClass("com.acme." + name).getDeclaredConstructor().newInstance();
    }

    @Test
    void reclaimingItsOwnLeasePassesWithUniqueIdsAndFailsWithSharedOnesSayingWhy() throws Exception {
        ModelChecker.of(load("ReclaimOwn")).scenarios("event-61-lost-ack", "crash-restart").check().assertPassed();
        Scenario shared = ReferenceScenarios.event61LostAck().toBuilder().instanceIds(Scenario.InstanceIds.SHARED).build();
        ModelCheckResult result = ModelChecker.of(load("ReclaimOwn")).scenario(shared).check();
        result.assertViolates(Invariant.SINGLE_LIVE_LEASE);
        assertThat(result.counterexamples().get(0).violation().detail())
                .contains("p1 and p2 both believe they own EVENT-61 (p1 and p2 present one instance id, node-1: instance-ids shared");
    }

    @Test
    void aDeliverAndAckRelayPassesWithTheWitnessesItsShapeCannotReachNamed() throws Exception {
        ModelCheckResult result = ModelChecker.of(load("DeliverAndAck")).scenarios("event-61-lost-ack", "crash-restart").check()
                .assertPassed();
        assertThat(Files.readString(result.report())).contains("DUPLICATE_ABSORBED not applicable to this logic: its delivery "
                + "and ack commit in one transaction (deliversAndAcksTogether)").doesNotContain("VACUOUS");
    }

    @Test
    void everyInvariantBrokenIsInTheFailure() throws Exception {
        ModelCheckResult result = ModelChecker.of(load("TwoMistakes")).scenarios("mixed").check();
        assertThat(result.counterexamples()).extracting(c -> c.invariant())
                .containsExactly(Invariant.AGGREGATE_ORDER, Invariant.STALE_ACK_REJECTED);
        assertThatThrownBy(result::assertPassed).isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("VIOLATION AGGREGATE_ORDER, STALE_ACK_REJECTED in scenario mixed")
                .hasMessageContaining("VIOLATION AGGREGATE_ORDER in scenario mixed with logic acme-two-mistakes")
                .hasMessageContaining("VIOLATION STALE_ACK_REJECTED in scenario mixed with logic acme-two-mistakes");
        // a check of some invariants judges those alone
        ModelChecker.of(load("TwoMistakes")).scenarios("mixed").invariants(Invariant.EFFECT_AT_MOST_ONCE, Invariant.NO_LOST_EVENT)
                .check().assertPassed();
    }

    @Test
    void aDecisionThatNeverReturnsFailsTheTestWithItsQuestionAndStack() throws Exception {
        RelayLogic loops = load("LoopsInClaim");
        long start = System.nanoTime();
        assertThatThrownBy(() -> ModelChecker.of(loops).scenarios("event-61-lost-ack").decisionTimeout(Duration.ofSeconds(1)).check())
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("relaycheck: LOGIC-ERROR in logic acme-loops: isClaimable(EVENT-61:PENDING, "
                        + "[EVENT-61:PENDING], now=0, p1) did not return within 1 s")
                .hasMessageContaining("com.acme.LoopsInClaim.isClaimable(");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("a safety net, never a verdict").isLessThan(Duration.ofMinutes(2));
    }

    @Test
    void aSystemExitFromADecisionEndsTheTestJvmWithOneLineAndExit6() throws Exception {
        Path out = dir.resolve("exit.out");
        Path err = dir.resolve("exit.err");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path") + File.pathSeparator + jar + File.pathSeparator + main, "com.team.ChecksItsLogic")
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("a safety net, never a verdict").isTrue();
        assertThat(p.exitValue()).isEqualTo(6);
        assertThat(Files.readString(out, StandardCharsets.UTF_8)).doesNotContain("the check returned");
        List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).startsWith("relaycheck: LOGIC-ERROR in logic acme-exits: acceptsAck(EVENT-61:PENDING[p1/t1/exp2], "
                + "t1, p1, now=0) called System.exit (at com.acme.ExitsOnAck.acceptsAck(");
    }
}
