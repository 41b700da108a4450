package dev.relaycheck.model;

import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.variants.LeaseNeverExpires;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScenarioTextTest {

    @Test
    void everyReferenceScenarioReadsBackEqualFromItsPrintedForm() {
        for (Scenario s : ReferenceScenarios.all()) {
            String text = ScenarioText.write(s);
            assertThat(ScenarioText.parse(text, "unused")).as(text).isEqualTo(s);
        }
    }

    @Test
    void sequenceGapsPayloadsAndFixedTickBoundsReadBackEqual() {
        Scenario s = Scenario.builder("shrunk.one").pollers("a", "b").stock("SKU-1", 5).stock("SKU-2", 0)
                .event(new Event("E2", "SKU-1", 2, 1, "same body")).event(new Event("E5", "SKU-2", 5, 3, "same body"))
                .batch(3).leaseTicks(4).maxTicks(7).maxDeliverFails(2).maxProduceFails(1).producedDuringRun(true)
                .requires(Witness.DELIVERY_RETRIED).build();
        String text = ScenarioText.write(s);
        assertThat(text).contains("event E2 SKU-1 1 seq 2 payload same body\n").contains("ticks 7\n");
        assertThat(ScenarioText.parse(text, "x")).isEqualTo(s);
    }

    @Test
    void commentsBlankLinesAndDefaultsAreRead() {
        Scenario s = ScenarioText.parse("""
                # two pollers race for one event
                pollers p1 p2

                stock SKU-1 10
                event E1 SKU-1 3
                ticks lease + 1
                requires lease-reclaimed
                """, "race");
        assertThat(s).isEqualTo(Scenario.builder("race").pollers("p1", "p2").stock("SKU-1", 10).event("E1", "SKU-1", 3)
                .ticksBeyondLease(1).requires(Witness.LEASE_RECLAIMED).build());
    }

    /** Lines of each text are separated by ";". */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "pollers p1;stock S 1;event E1 S 1;speed 3|4|unknown key 'speed'",
            "pollers p1;batch two|2|batch: 'two' is not a whole number",
            "pollers p1;batch 0|2|batch must be at least 1",
            "pollers p1;lease 2;lease 3|3|'lease' given twice (first at line 2)",
            "pollers p1;event E1 SKU-9 1|2|no 'stock SKU-9 UNITS' line",
            "stock S 1;event E1 S 1|2|no pollers",
            "pollers p1 p1|1|reserved or repeated",
            "pollers p1;ticks soon|2|not a number N or lease+N",
            "pollers p1;requires FAST|2|unknown witness 'FAST'",
            "pollers p1;stock S 1;event E1 S 1;event E1 S 2|4|event id E1 repeated",
            "pollers p1;stock S 1;event E1 S 0|3|quantity must be at least 1",
            "pollers p1;name bad/name|2|scenario name must be",
            "pollers p1;produced-during-run maybe|2|neither true nor false",
    })
    void everyProblemNamesItsLine(String text, int line, String message) {
        assertThatThrownBy(() -> ScenarioText.parse(text.replace(";", "\n"), "f"))
                .isInstanceOfSatisfying(ScenarioText.FormatException.class, e -> assertThat(e.line()).isEqualTo(line))
                .hasMessageContaining(message);
    }

    @Test
    void tickBoundsParseAndPrintBothForms() {
        assertThat(TickBound.parse("4")).isEqualTo(TickBound.at(4));
        assertThat(TickBound.parse("lease")).isEqualTo(TickBound.beyondLease(0));
        assertThat(TickBound.parse("lease+3").toString()).isEqualTo("lease+3");
        assertThat(TickBound.beyondLease(2).resolve(5)).isEqualTo(7);
        assertThat(TickBound.at(2).resolve(5)).isEqualTo(2);
    }

    /** The shipped logics keep exactly the clock bounds the reference scenarios had as fixed numbers. */
    @Test
    void shippedLogicsKeepTheirClockBounds() {
        Map<String, Integer> before = new java.util.HashMap<>(Map.of("event-61-lost-ack", 2, "stale-ack-after-expiry", 3,
                "double-claim", 2, "crash-restart", 3, "aggregate-order", 2, "producer-atomicity", 0, "mixed", 4, "mixed-big", 5,
                "soak", 9));
        before.putAll(Map.of("marker-retention", 2, "batch-ack", 2, "unmatched-settle", 2, // the lease, settle and timing scenarios
                "lease-renewal", 4, "clock-skew", 3, "commit-visibility", 2));
        before.put("outbox-cleanup", 2);
        for (Scenario s : ReferenceScenarios.all()) {
            for (RelayLogic logic : LogicCatalogue.all()) {
                assertThat(new RelayModel(logic, s).maxTicks()).as("%s / %s", s.name(), logic.id())
                        .isEqualTo(before.get(s.name()));
            }
        }
    }

    /** Defect 6: a logic granting a longer (or shorter) lease gets a clock that lets its leases expire. */
    @Test
    void theClockFollowsTheLeaseTheLogicGrants() {
        Scenario mixed = ReferenceScenarios.mixed(); // lease 2, ticks lease+2
        assertThat(new RelayModel(leaseOf(now -> now + 5), mixed).maxTicks()).isEqualTo(7);
        assertThat(new RelayModel(leaseOf(now -> now + 1), mixed).maxTicks()).isEqualTo(3);
        assertThat(new RelayModel(new LeaseNeverExpires(), mixed).maxTicks()).isEqualTo(4);
        assertThat(new RelayModel(leaseOf(now -> now + 5), ReferenceScenarios.producerAtomicity()).maxTicks()).isZero();
        assertThat(Healing.bound(new RelayModel(leaseOf(now -> now + 5), mixed)))
                .isGreaterThan(Healing.bound(new RelayModel(LogicCatalogue.correct(), mixed)));
    }

    private static RelayLogic leaseOf(java.util.function.IntUnaryOperator expiry) {
        return new CorrectRelayLogic() {
            @Override
            public int leaseExpiry(int now, int leaseTicks) {
                return expiry.applyAsInt(now);
            }
        };
    }
}
