package dev.relaycheck.checker.search;

import dev.relaycheck.checker.space.CanonicalTokens;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.RelayModel;
import dev.relaycheck.model.RelayState;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.ScheduleRunner;
import dev.relaycheck.model.Step;
import dev.relaycheck.model.StepResult;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every place a token lives is renumbered by rank, consistently, and nothing else changes. */
class CanonicalTokensTest {

    private static RelayState run(RelayLogic logic, Scenario s, String... steps) {
        return ScheduleRunner.run(new RelayModel(logic, s), Stream.of(steps).map(Step::parse).toList()).finalState();
    }

    @Test
    void leasesHeldGrantsAndTheLastIssuedAreRenumberedByRankKeepingOrder() {
        Scenario s = ReferenceScenarios.event61LostAck();
        // p1's t1 is forgotten by everyone once p1 lost its ack and p2 re-claimed with t2: t2 is the only token left
        RelayState s1 = run(LogicCatalogue.correct(), s, "Claim(p1)", "Deliver(p1,EVENT-61,t1)", "LoseAck(p1,EVENT-61)",
                "Tick", "Tick", "Claim(p2)");
        assertThat(s1.lastToken()).isEqualTo(2);
        RelayState c = new CanonicalTokens(LogicCatalogue.correct(), s).canonical(s1);
        assertThat(c.lastToken()).isEqualTo(1);
        assertThat(c.rows().get(0).lease().token()).isEqualTo(1);
        assertThat(c.rows().get(0).lease().owner()).isEqualTo("p2");
        assertThat(c.rows().get(0).lease().expiry()).isEqualTo(s1.rows().get(0).lease().expiry());
        assertThat(c.poller(1).batch().get(0).token()).isEqualTo(1);
        assertThat(c.clock()).isEqualTo(s1.clock());
        assertThat(c.faults()).isEqualTo(s1.faults());

        // p1 still holds t1 (stale) while p2 holds t2: both live, order kept, nothing to renumber
        RelayState s2 = run(LogicCatalogue.correct(), s, "Claim(p1)", "Tick", "Tick", "Claim(p2)");
        assertThat(new CanonicalTokens(LogicCatalogue.correct(), s).canonical(s2)).isSameAs(s2);
    }

    @Test
    void aDedupKeyDerivedFromTheDeliveryTokenIsRewrittenForTheRenumberedToken() {
        RelayLogic newId = LogicCatalogue.byId("new-id-on-retry").orElseThrow();
        Scenario s = ReferenceScenarios.event61LostAck();
        // p1 delivers under t1 and loses its ack; p2 re-claims with t2: t1 lives on only in the marker key
        RelayState st = run(newId, s, "Claim(p1)", "Deliver(p1,EVENT-61,t1)", "LoseAck(p1,EVENT-61)", "Tick", "Tick",
                "Claim(p2)");
        assertThat(st.consumer().markers()).containsOnlyKeys("EVENT-61/attempt-t1");
        RelayState c = new CanonicalTokens(newId, s).canonical(st);
        assertThat(c).isSameAs(st); // t1 (marker), t2 (lease, p2's grant, last): already 1..2

        RelayState renumbered = new CanonicalTokens(newId, s).canonical(withTokensShifted(st, 5));
        assertThat(renumbered).isEqualTo(st);
    }

    @Test
    void renumberingCommutesWithEveryStepOnSeededWalks() {
        // for each logic, each scenario: applying a step to the renumbered state and renumbering the result gives
        // the renumbered successor (the logics decide by token order and equality alone)
        List<RelayLogic> logics = new ArrayList<>(LogicCatalogue.variants());
        logics.add(LogicCatalogue.correct());
        logics.add(new LivenessSearchTest.LeaseExpiresAtOnce());
        for (Scenario s : ReferenceScenarios.defaults()) {
            for (RelayLogic logic : logics) {
                RelayModel model = new RelayModel(logic, s);
                CanonicalTokens canonical = new CanonicalTokens(logic, s);
                for (long seed = 1; seed <= 20; seed++) {
                    RelayState st = model.initial();
                    long rng = seed;
                    for (int i = 0; i < 40; i++) {
                        List<Step> enabled = model.enabled(st);
                        RelayState shifted = withTokensShifted(st, 3);
                        RelayState c = canonical.canonical(st);
                        assertThat(canonical.canonical(shifted)).isEqualTo(c);
                        assertThat(model.enabled(c).size()).isEqualTo(enabled.size());
                        if (enabled.isEmpty()) {
                            break;
                        }
                        rng = dev.relaycheck.model.SplitMix64.mix(rng + i);
                        int k = (int) Long.remainderUnsigned(rng, enabled.size());
                        StepResult exact = model.applyEnabled(st, enabled.get(k));
                        StepResult fromCanonical = model.applyEnabled(c, model.enabled(c).get(k));
                        assertThat(canonical.canonical(fromCanonical.state())).as("%s on %s", logic.id(), s.name())
                                .isEqualTo(canonical.canonical(exact.state()));
                        assertThat(fromCanonical.outcome().getClass()).isEqualTo(exact.outcome().getClass());
                        st = exact.state();
                    }
                }
            }
        }
    }

    /** The same state with every positive token raised by {@code by} (an order-keeping renaming). */
    private static RelayState withTokensShifted(RelayState s, long by) {
        var rows = s.rows().stream().map(r -> r.hasLease() ? r.withLease(r.lease().withToken(r.lease().token() + by)) : r).toList();
        var pollers = s.pollers().stream().map(p -> new dev.relaycheck.model.PollerState(p.phase(),
                p.batch().stream().map(h -> new dev.relaycheck.model.Held(h.eventId(), h.token() + by)).toList(), p.readSet())).toList();
        var markers = new java.util.TreeMap<String, String>();
        var writtenAt = new java.util.TreeMap<String, Integer>(); // a dated marker keeps its date
        s.consumer().markers().forEach((k, v) -> {
            int at = k.indexOf("/attempt-t");
            String key = at < 0 ? k : k.substring(0, at) + "/attempt-t" + (Long.parseLong(k.substring(at + 10)) + by);
            markers.put(key, v);
            if (s.consumer().writtenAt(k) >= 0) {
                writtenAt.put(key, s.consumer().writtenAt(k));
            }
        });
        var consumer = new dev.relaycheck.model.ConsumerState(markers, s.consumer().stock(), s.consumer().effects(),
                s.consumer().appliedOrder(), writtenAt, s.consumer().purged());
        return new RelayState(s.clock(), s.lastToken() == 0 ? 0 : s.lastToken() + by, rows, s.businessWrites(), consumer,
                pollers, s.producer(), s.faults(), s.surroundings());
    }
}
