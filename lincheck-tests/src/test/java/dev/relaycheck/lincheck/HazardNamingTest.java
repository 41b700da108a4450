package dev.relaycheck.lincheck;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A non-linearizable result on a hazard scenario names the hazard and its invariant, for any store under test. */
class HazardNamingTest {

    @Test
    void aFailedHazardScenarioNamesItsInvariant() {
        String staleAck = "init claim(p1): [E1/t1], tick(): 1; parallel T1 ack(E1, 1): true [0,1] / T2 claim(p2): [E1/t2], ack(E1, 2): false";
        assertThat(HazardScenarios.ranIn(staleAck)).get().satisfies(h -> {
            assertThat(h.name()).isEqualTo("stale-ack-after-reclaim");
            assertThat(h.breaks().name()).isEqualTo("STALE_ACK_REJECTED");
        });
        // thread order does not matter; the outcome-only operations leave the stock() observer out
        assertThat(HazardScenarios.ranIn("parallel T1 claim(p2): [E1/t2] / T2 claim(p1): [E1/t1]")).get()
                .extracting(HazardScenarios.Hazard::name).isEqualTo("double-claim");
        assertThat(HazardScenarios.ranIn("init claim(p1): [E1/t1], tick(): 1, claim(p2): [E1/t2]; parallel "
                + "T1 deliver(E1, 1): APPLIED / T2 deliver(E1, 2): APPLIED")).get()
                .extracting(HazardScenarios.Hazard::name).isEqualTo("concurrent-redelivery");
        // a random scenario is not a hazard
        assertThat(HazardScenarios.ranIn("init tick(): 1; parallel T1 claim(p1): [] / T2 tick(): 2")).isEmpty();
    }

    @Test
    void theUsersStoreFailureNamesTheHazardInItsDetail() {
        String report = """
                = Invalid execution results =
                | ------------------------------------------ |
                |      Thread 1      |       Thread 2        |
                | ------------------------------------------ |
                | claim(p1): [E1/t1] |                       |
                | tick(): 1          |                       |
                | ------------------------------------------ |
                | ack(E1, 1): true   | claim(p2): [E1/t2]    |
                |                    | ack(E1, 2): false     |
                | ------------------------------------------ |
                """;
        RunOutcome o = LincheckFailures.classify(report, "");
        assertThat(o.status()).isEqualTo(RunOutcome.Status.VIOLATION);
        assertThat(o.detail()).startsWith("non-linearizable against the correct model (hazard stale-ack-after-reclaim: STALE_ACK_REJECTED): ");
    }
}
