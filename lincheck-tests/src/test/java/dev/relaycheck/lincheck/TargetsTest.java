package dev.relaycheck.lincheck;

import dev.relaycheck.lincheck.StoreDomain.EventId;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.SplitMix64;
import dev.relaycheck.model.catalogue.LogicCatalogue;
import dev.relaycheck.model.store.ConcurrentRelayStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TargetsTest {

    @Test
    void everyCatalogueVariantIsATargetOrSaysWhyNot() {
        Set<String> targetIds = new HashSet<>();
        LincheckTargets.all().forEach(t -> assertThat(targetIds.add(t.id())).as("unique id %s", t.id()).isTrue());
        for (RelayLogic v : LogicCatalogue.variants()) {
            assertThat(targetIds.contains(v.id()) ^ LincheckTargets.NOT_COVERED.containsKey(v.id()))
                    .as("%s is either a target or not covered, with a reason", v.id()).isTrue();
        }
        assertThat(targetIds).contains("correct", "check-then-act-claim-store", "check-then-insert-dedup-store", "read-then-write-ack-store");
        assertThat(LincheckTargets.all()).filteredOn(t -> !t.isCorrect()).allSatisfy(t -> assertThat(t.breaks()).isNotEmpty());
    }

    /**
     * The {@code sequential} flag decides which targets stress mode is pointed at; it must be true exactly when
     * some single-threaded run of the store differs from the correct model.
     */
    @Test
    void sequentialFlagMatchesWhatASingleThreadSees() {
        for (Target t : LincheckTargets.all()) {
            boolean differs = false;
            for (int seed = 0; seed < 300 && !differs; seed++) {
                differs = !sequentialRun(t, seed, true).equals(sequentialRun(t, seed, false));
            }
            assertThat(differs).as("%s: a single thread sees the mistake", t.id()).isEqualTo(t.sequential() && !t.isCorrect());
        }
    }

    /** The variants that are not targets change nothing any store operation answers. */
    @Test
    void notCoveredVariantsAnswerExactlyAsTheCorrectLogic() {
        for (String id : LincheckTargets.NOT_COVERED.keySet()) {
            RelayLogic logic = LogicCatalogue.byId(id).orElseThrow();
            Target asTarget = new Target(id, Target.Kind.BROKEN_LOGIC, "", "", true,
                    (e, s, l) -> new ConcurrentRelayStore(logic, e, s, l));
            for (int seed = 0; seed < 300; seed++) {
                assertThat(sequentialRun(asTarget, seed, true)).as(id).isEqualTo(sequentialRun(asTarget, seed, false));
            }
        }
    }

    /** 12 seeded operations over the check's domain, by pollers 1 and 2 on one thread, on the target's store or on the correct model. */
    private static List<Object> sequentialRun(Target t, long seed, boolean onStore) {
        PollerOperations store = new PollerOperations(t.newStore(StoreDomain.EVENTS, StoreDomain.STOCK, StoreDomain.LEASE_TICKS));
        RelayStoreSpecification model = new RelayStoreSpecification();
        SplitMix64 rng = new SplitMix64(seed);
        List<Object> answers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            EventId event = EventId.values()[rng.nextInt(2)];
            int poller = 1 + rng.nextInt(2);
            Object a = switch (rng.nextInt(6)) {
                case 0 -> onStore ? store.claim(poller) : model.claim(poller);
                case 1 -> onStore ? store.deliver(poller, event) : model.deliver(poller, event);
                case 2 -> onStore ? store.ack(poller, event) : model.ack(poller, event);
                case 3 -> onStore ? store.release(poller, event) : model.release(poller, event);
                case 4 -> onStore ? store.tick() : model.tick();
                default -> onStore ? store.stock() : model.stock();
            };
            answers.add(a);
        }
        return answers;
    }
}
