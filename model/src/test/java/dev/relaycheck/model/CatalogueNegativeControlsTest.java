package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One hand-written schedule per catalogue variant: the variant breaks its expected invariant on it, and the
 * correct logic, run on the same schedule (steps it does not offer, such as the second half of a split
 * transaction, are skipped), breaks nothing.
 */
class CatalogueNegativeControlsTest {

    static Stream<Arguments> controls() {
        Scenario twoPollers = Scenario.builder("two-pollers").pollers("p1", "p2").stock("SKU-1", 10)
                .event("E1", "SKU-1", 3).leaseTicks(2).maxTicks(3).maxLostAcks(1).maxCrashes(1).maxDeliverFails(1).build();
        Scenario sameAggregate = ReferenceScenarios.aggregateOrder();
        Scenario producing = ReferenceScenarios.producerAtomicity();
        String[] staleAck = {"Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick", "Claim(p2)", "Ack(p1,E1,t1)"};
        String[] redeliver = {"Claim(p1)", "Deliver(p1,E1,t1)", "LoseAck(p1,E1)", "Tick", "Tick", "Claim(p1)", "Deliver(p1,E1,t2)"};
        String[] halfConsumer = {"Claim(p1)", "Deliver(p1,E1,t1)", "Crash(p1)"};
        return Stream.of(
                control("ack-ignores-token", twoPollers, staleAck),
                control("reclaim-keeps-token", twoPollers, "Claim(p1)", "Tick", "Tick", "Claim(p2)"),
                control("claim-ignores-lease", twoPollers, "Claim(p1)", "Claim(p2)"),
                control("check-then-act-claim", twoPollers, "Claim(p1)", "Claim(p2)", "Claim(p1)", "Claim(p2)"),
                control("lease-never-expires", twoPollers, "Claim(p1)", "Crash(p1)", "Tick", "Tick", "Tick"),
                control("ack-before-deliver", twoPollers, "Claim(p1)", "Ack(p1,E1,t1)"),
                control("no-dedup-marker", twoPollers, redeliver),
                control("marker-before-effect", twoPollers, halfConsumer),
                control("effect-before-marker", twoPollers, halfConsumer),
                control("dedup-by-payload", sameAggregate,
                        "Claim(p1)", "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)", "Claim(p1)", "Deliver(p1,E2,t2)", "Ack(p1,E2,t2)"),
                control("new-id-on-retry", twoPollers, redeliver),
                control("no-head-of-aggregate", sameAggregate,
                        "Claim(p1)", "Claim(p2)", "Deliver(p2,E2,t2)", "Deliver(p1,E1,t1)"),
                control("outbox-outside-transaction", producing, "Produce(E1)", "ProduceFails(E1)"),
                control("release-ignores-token", twoPollers,
                        "Claim(p1)", "Tick", "Tick", "Claim(p2)", "DeliverFails(p1,E1)", "Release(p1,E1,t1)"),
                // the marker purged before the lost ack's redelivery; a batch acked whole; a stale ack's
                // unmatched result ignored (the correct logic offers no Purge, so the lenient run skips it)
                control("purge-at-ack", ReferenceScenarios.markerRetention(), "Claim(p1)", "Deliver(p1,E1,t1)", "Purge(E1)",
                        "LoseAck(p1,E1)", "Tick", "Claim(p2)", "Deliver(p2,E1,t2)"),
                control("retention-shorter-than-redelivery", ReferenceScenarios.markerRetention(), "Claim(p1)",
                        "Deliver(p1,E1,t1)", "LoseAck(p1,E1)", "Tick", "Purge(E1)", "Claim(p2)", "Deliver(p2,E1,t2)"),
                control("batch-ack-whole-batch", ReferenceScenarios.batchAck(), "Claim(p1)", "Deliver(p1,E1,t1)",
                        "Ack(p1,E1,t1)"),
                control("ignores-settle-result", ReferenceScenarios.unmatchedSettle(), "Claim(p1)", "Tick", "Claim(p2)",
                        "Deliver(p1,E1,t1)", "Ack(p1,E1,t1)"),
                // p1 stalls past its lease, p2 takes the row over, p1's heartbeat renews p2's lease
                control("renewal-by-owner", ReferenceScenarios.leaseRenewal(),
                        "Claim(p1)", "Tick", "Tick", "Claim(p2)", "Renew(p1,E1,t1)"),
                // ... or renews it after p2's lease lapsed too (renewal-by-owner refuses that one)
                control("renewal-ignores-expiry", ReferenceScenarios.leaseRenewal(),
                        "Claim(p1)", "Tick", "Tick", "Claim(p2)", "Tick", "Tick", "Renew(p1,E1,t1)"),
                // p2's clock runs a tick ahead: at database time 1 it finds p1's lease (expiry 2) expired
                control("app-clock-expiry", ReferenceScenarios.clockSkew(),
                        "Skew(p1,0)", "Skew(p2,+1)", "Claim(p1)", "Tick", "Claim(p2)"),
                // E2 commits first and is read; E1, allocated before it, commits below the cursor
                control("cursor-by-sequence", ReferenceScenarios.commitVisibility(),
                        "Begin(E1)", "Begin(E2)", "Commit(E2)", "Claim(p1)", "Commit(E1)"),
                // the cleanup deletes E1 while p1 holds its lease; p1 crashes, nothing is left to claim (the
                // reference's cleanup is not offered there: nothing is DELIVERED)
                control("cleanup-deletes-in-flight", ReferenceScenarios.outboxCleanup(), "Claim(p1)", "Cleanup", "Crash(p1)"));
    }

    private static Arguments control(String variant, Scenario scenario, String... schedule) {
        return Arguments.of(variant, scenario, Schedules.of(schedule));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("controls")
    void variantBreaksItsInvariantAndCorrectLogicDoesNot(String variantId, Scenario scenario, List<Step> schedule) {
        RelayLogic variant = LogicCatalogue.byId(variantId).orElseThrow();
        Invariant expected = variant.expectedViolation().orElseThrow();

        assertThat(violations(variant, scenario, schedule, false))
                .as("%s on %s", variantId, schedule)
                .extracting(Violation::invariant).contains(expected);
        assertThat(violations(LogicCatalogue.correct(), scenario, schedule, true))
                .as("correct logic on the same schedule").isEmpty();
    }

    /** Safety violations of the schedule, then (if none) the healing check from where it ended. */
    private static List<Violation> violations(RelayLogic logic, Scenario scenario, List<Step> schedule, boolean lenient) {
        RelayModel model = new RelayModel(logic, scenario);
        ScheduleRunner.Run run = lenient ? ScheduleRunner.runLenient(model, schedule) : ScheduleRunner.run(model, schedule);
        List<Violation> out = new ArrayList<>(run.violations());
        if (out.isEmpty()) {
            Optional<Violation> liveness = Healing.check(model, run.finalState());
            liveness.ifPresent(out::add);
        }
        return out;
    }

    @Test
    void everyCatalogueVariantHasAControl() {
        List<String> covered = controls().map(a -> (String) a.get()[0]).toList();
        assertThat(covered).containsExactlyInAnyOrderElementsOf(
                LogicCatalogue.variants().stream().map(RelayLogic::id).toList());
        assertThat(LogicCatalogue.variants()).hasSize(23); // the first 14, the 8 lease, settle and timing mistakes and the outbox cleanup
    }

    @Test
    void ackIgnoringTokenBreaksNoStateInvariantOnlyTheTransitionCheck() {
        // why STALE_ACK_REJECTED must be a transition check: the states themselves all look fine
        RelayModel model = new RelayModel(LogicCatalogue.byId("ack-ignores-token").orElseThrow(),
                ReferenceScenarios.staleAckAfterExpiry());
        ScheduleRunner.Run run = ScheduleRunner.run(model, Schedules.of(
                "Claim(p1)", "Deliver(p1,E1,t1)", "Tick", "Tick", "Claim(p2)", "Ack(p1,E1,t1)"));
        assertThat(Invariants.checkState(model.scenario(), run.finalState())).isEmpty();
        assertThat(run.violations()).extracting(Violation::invariant).containsExactly(Invariant.STALE_ACK_REJECTED);
    }
}
