package dev.relaycheck.lincheck;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A non-linearizable run names the invariant its answers show broken, and only when they show it whatever the
 * interleaving; the hazard scenario it ran in says where, never what broke.
 */
class HazardNamingTest {

    @Test
    void theScenarioIsRecognisedWhateverTheThreadOrder() {
        assertThat(HazardScenarios.ranIn("init claim(1): [E1/t1], tick(): 1; parallel T1 ack(1, E1): ACKED [0,1] / "
                + "T2 claim(2): [E1/t2], ack(2, E1): STALE")).get().extracting(HazardScenarios.Hazard::name)
                .isEqualTo("ack-racing-reclaim");
        assertThat(HazardScenarios.ranIn("parallel T1 claim(2): [E1/t2] / T2 claim(1): [E1/t1]")).get()
                .extracting(HazardScenarios.Hazard::name).isEqualTo("double-claim");
        // the outcome-only operations leave the stock() observer out
        assertThat(HazardScenarios.ranIn("init claim(1): [E1/t1], tick(): 1, claim(2): [E1/t2]; parallel "
                + "T1 deliver(1, E1): APPLIED / T2 deliver(2, E1): APPLIED")).get()
                .extracting(HazardScenarios.Hazard::name).isEqualTo("concurrent-redelivery");
        assertThat(HazardScenarios.ranIn("init tick(): 1; parallel T1 claim(1): [] / T2 tick(): 2")).isEmpty();
    }

    @Test
    void twoClaimsOfDifferentRowsAreAnOrderDifferenceNotADoubleClaim() {
        RunOutcome o = LincheckFailures.classify(table(List.of(), List.of("claim(1): [E2/t1]"), List.of("claim(2): [E1/t2]")), "");
        assertThat(o.detail()).isEqualTo("non-linearizable against the correct model (AGGREGATE_ORDER: claim(1) was granted E2 "
                + "while E1, ahead of it in SKU-1, was never acknowledged in the run: the claim skipped the head of its aggregate) "
                + "in scenario double-claim: parallel T1 claim(1): [E2/t1] / T2 claim(2): [E1/t2]");
        assertThat(o.detail()).doesNotContain("SINGLE_LIVE_LEASE");
    }

    @Test
    void twoPollersGrantedOneRowWithoutATickAreTwoLiveLeases() {
        RunOutcome o = LincheckFailures.classify(table(List.of(), List.of("claim(1): [E1/t7]"), List.of("claim(2): [E1/t14]")), "");
        assertThat(o.detail()).startsWith("non-linearizable against the correct model (SINGLE_LIVE_LEASE: claim(1) and claim(2) "
                + "were both granted E1, with no tick and no accepted ack or release of E1 in the run: two pollers held live "
                + "leases on it at once) in scenario double-claim: ");
    }

    @Test
    void anAckAcceptedAfterAReclaimThatReturnedBeforeItIsAStaleAck() {
        RunOutcome o = LincheckFailures.classify(table(List.of("claim(1): [E1/t1]", "tick(): 1"),
                List.of("ack(1, E1): ACKED [0,1]"), List.of("claim(2): [E1/t2]", "ack(2, E1): STALE")), "");
        assertThat(o.detail()).startsWith("non-linearizable against the correct model (STALE_ACK_REJECTED: ack(1, E1) was accepted, "
                + "yet claim(2) had granted E1 again before it began: an ack with a superseded token changed the row) "
                + "in scenario ack-racing-reclaim: ");
    }

    @Test
    void anAckAfterTheReclaimOnTheSameThreadOrderIsAStaleAck() {
        RunOutcome o = LincheckFailures.classify(table(List.of("claim(1): [E1/t1]", "tick(): 1", "claim(2): [E1/t2]"),
                List.of("ack(1, E1): ACKED"), List.of("deliver(2, E1): APPLIED")), "");
        assertThat(o.detail()).isEqualTo("non-linearizable against the correct model (STALE_ACK_REJECTED: ack(1, E1) was accepted, "
                + "yet claim(2) had granted E1 again before it began: an ack with a superseded token changed the row) in scenario "
                + "stale-ack-after-reclaim: init claim(1): [E1/t1], tick(): 1, claim(2): [E1/t2]; parallel T1 ack(1, E1): ACKED / "
                + "T2 deliver(2, E1): APPLIED");
    }

    @Test
    void anAckOverlappingTheReclaimNamesNoInvariant() {
        // either the ack came first and a delivered row was claimed, or it came second and was stale: the table cannot say
        RunOutcome o = LincheckFailures.classify(table(List.of("claim(1): [E1/t1]", "tick(): 1"),
                List.of("ack(1, E1): ACKED"), List.of("claim(2): [E1/t2]", "ack(2, E1): STALE")), "");
        assertThat(o.detail()).startsWith("non-linearizable against the correct model in scenario ack-racing-reclaim: ");
    }

    @Test
    void aReusedTokenTwoAppliedDeliveriesAndAnEffectLostAreNamed() {
        assertThat(LincheckFailures.classify(table(List.of("claim(1): [E1/t1]", "tick(): 1"),
                List.of("claim(2): [E1/t1 (not above t1, granted for E1 before)]"), List.of("tick(): 2")), "").detail())
                .startsWith("non-linearizable against the correct model (STALE_ACK_REJECTED: claim(2) was granted E1 with a token "
                        + "not above one E1 had been granted before: a claim must issue a token above every earlier one of its row): ");
        assertThat(LincheckFailures.classify(table(List.of("claim(1): [E1/t1]", "tick(): 1", "claim(2): [E1/t2]"),
                List.of("deliver(1, E1): APPLIED", "stock(): 8"), List.of("deliver(2, E1): APPLIED", "stock(): 6")), "").detail())
                .startsWith("non-linearizable against the correct model (EFFECT_AT_MOST_ONCE: deliver(1, E1) and deliver(2, E1) both "
                        + "answered APPLIED: E1's effect was applied twice) in scenario concurrent-redelivery: ");
        assertThat(LincheckFailures.classify(table(List.of("claim(1): [E1/t1]", "deliver(1, E1): APPLIED", "ack(1, E1): ACKED"),
                List.of("claim(1): [E2/t2]", "deliver(1, E2): DUPLICATE", "ack(1, E2): ACKED"), List.of("tick(): 1")), "").detail())
                .startsWith("non-linearizable against the correct model (NO_LOST_EVENT: deliver(1, E2) answered DUPLICATE though no "
                        + "delivery of E2 was applied, and ack(1, E2) marked it delivered: E2's effect is lost) in scenario equal-payloads: ");
        assertThat(LincheckFailures.classify(table(List.of("claim(1): [E1/t1]", "tick(): 1", "claim(2): [E1/t2]"),
                List.of("deliver(1, E1): APPLIED", "stock(): 8"), List.of("deliver(2, E1): DUPLICATE", "stock(): 10")), "").detail())
                .startsWith("non-linearizable against the correct model (MARKER_IFF_EFFECT: deliver(2, E1) answered DUPLICATE, yet "
                        + "stock() read 10 after it, the stock before any effect: a marker was there without its effect) ");
    }

    /** A results table in the shape Lincheck 3.7 prints: the init part, then the parallel part on two threads. */
    static String table(List<String> init, List<String> t1, List<String> t2) {
        List<String> lines = new ArrayList<>(List.of("= Invalid execution results =", "| ----- |", "| Thread 1 | Thread 2 |", "| ----- |"));
        init.forEach(c -> lines.add("| " + c + " |  |"));
        if (!init.isEmpty()) {
            lines.add("| ----- |");
        }
        for (int i = 0; i < Math.max(t1.size(), t2.size()); i++) {
            lines.add("| " + (i < t1.size() ? t1.get(i) : "") + " | " + (i < t2.size() ? t2.get(i) : "") + " |");
        }
        lines.add("| ----- |");
        return String.join("\n", lines) + "\n";
    }
}
