package dev.relaycheck.junit;

import com.acme.OwnerFencedLogic;
import com.acme.UnfencedLogic;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** The annotation as a team uses it, and what a failing one reports (run through JUnit's own engine). */
class CheckRelayLogicTest {

    @CheckRelayLogic(value = OwnerFencedLogic.class, scenarios = {"stale-ack-after-expiry", "double-claim"})
    void aTeamsCorrectLogicPasses(ModelCheckResult result) {
        assertThat(result.passed()).isTrue();
        assertThat(result.results()).hasSize(2);
        assertThat(result.report()).exists();
    }

    @CheckRelayLogic(value = UnfencedLogic.class, scenarios = "stale-ack-after-expiry", expectViolation = Invariant.STALE_ACK_REJECTED)
    void aNegativeControlPassesOnlyWhenTheViolationIsFound() {
    }

    @CheckRelayLogic(value = OwnerFencedLogic.class, scenarios = "src/test/resources/two-events-one-sku.scenario")
    void aScenarioFileOfTheTeamsOwn(ModelCheckResult result) {
        assertThat(result.results()).singleElement().satisfies(r -> assertThat(r.scenario().name()).isEqualTo("two-events-one-sku"));
    }

    @CheckRelayLogic(value = UnfencedLogic.class, scenarios = "src/test/resources/two-events-one-sku.scenario",
            expectViolation = Invariant.STALE_ACK_REJECTED)
    void theTeamsScenarioCatchesTheUnfencedLogic() {
    }

    @CheckRelayLogic(catalogue = "no-head-of-aggregate", scenarios = "aggregate-order", expectViolation = Invariant.AGGREGATE_ORDER)
    void aCatalogueVariantIsCaught() {
    }

    @CheckSqlRelay(adapter = com.acme.AcmeRelayAdapter.class, properties = Property.AGGREGATE_ORDER)
    void aTeamsSqlRelayKeepsAggregateOrder() {
    }

    @CheckSqlRelay(adapter = com.acme.AcmeRelayAdapter.Unfenced.class, properties = Property.STALE_ACKS_REJECTED,
            expectViolation = Invariant.STALE_ACK_REJECTED)
    void aTeamsUnfencedSqlRelayIsCaught() {
    }

    /** Run by the engine below only: the broken logic, expected to pass. */
    static class Failing {
        @CheckRelayLogic(value = UnfencedLogic.class, scenarios = "stale-ack-after-expiry")
        void unfencedLogicPasses() {
        }

        @CheckRelayLogic(value = OwnerFencedLogic.class, scenarios = "stale-ack-after-expiry", expectViolation = Invariant.STALE_ACK_REJECTED)
        void correctLogicBreaksFencing() {
        }

        @CheckSqlRelay(adapter = com.acme.AcmeRelayAdapter.Unfenced.class, properties = Property.STALE_ACKS_REJECTED)
        void unfencedSqlRelayPasses() {
        }
    }

    @Test
    void aViolationFailsTheTestWithTheTraceAndAReplayLineThatNamesTheTeamsClasses() throws Exception {
        List<Event> failed = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Failing.class)).execute()
                .testEvents().failed().list();
        assertThat(failed).hasSize(3);
        assertThat(message(failed, "unfencedSqlRelayPasses")).contains("VIOLATION STALE_ACK_REJECTED")
                .containsPattern("replay: mvn test -Dtest='CheckRelayLogicTest\\$Failing#unfencedSqlRelayPasses' -Drelaycheck.seed=-?\\d+\n")
                .contains("relaycheck CLI: ./relaycheck sql replay --adapter 'com.acme.AcmeRelayAdapter$Unfenced'");
        String violation = message(failed, "unfencedLogicPasses");
        assertThat(violation)
                .contains("logic acme-unfenced failed the model check in 1 of 1 scenarios")
                .contains("VIOLATION STALE_ACK_REJECTED in scenario stale-ack-after-expiry with logic acme-unfenced")
                .contains("<== STALE_ACK_REJECTED")
                .contains("replay: mvn test -Dtest='CheckRelayLogicTest$Failing#unfencedLogicPasses'\n")
                .containsPattern("relaycheck CLI: \\./relaycheck replay rc1:\\S+ --classpath \\S*test-classes")
                .contains("report: target/relaycheck/model/");
        assertThat(message(failed, "correctLogicBreaksFencing"))
                .contains("expected logic acme-owner-fenced to break one of [STALE_ACK_REJECTED], but no scenario did: [stale-ack-after-expiry: OK]");
        ReplayInCli.Run replay = ReplayInCli.run(violation);
        assertThat(replay.output()).contains("REPRODUCED STALE_ACK_REJECTED");
        assertThat(replay.exit()).isEqualTo(1);
        Path report = Path.of("target/relaycheck/model/CheckRelayLogicTest-Failing.unfencedLogicPasses.txt");
        assertThat(Files.readString(report)).contains("VIOLATION STALE_ACK_REJECTED").contains("relaycheck CLI: ./relaycheck replay rc1:");
    }

    @Test
    void aScenarioBuiltInTheTestWithCustomPayloads() {
        dev.relaycheck.model.Scenario twoEqualBodies = dev.relaycheck.model.Scenario.builder("two-equal-bodies").pollers("p1")
                .stock("SKU-1", 10).stock("SKU-2", 10)
                .event("E1", "SKU-1", 1, "{\"reserve\":1}").event("E2", "SKU-2", 1, "{\"reserve\":1}").build();
        ModelChecker.of(new OwnerFencedLogic()).scenario(twoEqualBodies).check().assertPassed();
        ModelChecker.ofCatalogue("dedup-by-payload").scenario(twoEqualBodies).check().assertViolates(Invariant.NO_LOST_EVENT);
    }

    @Test
    void theProgrammaticFormGivesTheSameVerdicts() {
        ModelChecker.of(new OwnerFencedLogic()).scenarios("event-61-lost-ack").check().assertPassed();
        ModelChecker.ofCatalogue("ack-ignores-token").scenarios("stale-ack-after-expiry").check()
                .assertViolates(Invariant.STALE_ACK_REJECTED);
    }

    private static String message(List<Event> failed, String method) {
        return failed.stream().filter(e -> e.getTestDescriptor().getDisplayName().startsWith(method)).findFirst().orElseThrow()
                .getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage();
    }
}
