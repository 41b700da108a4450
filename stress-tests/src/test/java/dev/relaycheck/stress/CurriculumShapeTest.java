package dev.relaycheck.stress;

import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.store.ConcurrentRelayStore;
import dev.relaycheck.model.store.RelayStores;
import dev.relaycheck.stress.run.CurriculumOptions;
import dev.relaycheck.stress.run.JCStressRunner;
import dev.relaycheck.stress.run.JcstressTargets;
import dev.relaycheck.stress.run.JcstressUserClasses;
import dev.relaycheck.stress.support.Harness;
import dev.relaycheck.stress.support.ProducerOutboxStore;
import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.Outcome;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The curriculum's shape, checked without running jcstress: the harnesses the issue asks for exist in the
 * generated TestList, each pairs the correct logic with a broken target, every outcome is described, the
 * last is a FORBIDDEN catch-all, witnesses exist, and every nested class really runs the target its name
 * maps to in summary.tsv.
 */
class CurriculumShapeTest {

    static final List<String> REQUIRED = List.of("Lease_01_DoubleClaim", "Lease_02_StaleAckAfterExpiry",
            "Lease_03_AckRacesExpiry", "Relay_01_DuplicateDelivery", "Relay_02_LostAckRedelivery",
            "Relay_03_CrashRestart", "Order_01_AggregateOrder", "Produce_01_Atomicity",
            "Lease_05_UnmatchedSettle", "Lease_06_RenewalAfterTakeover"); // unmatched settle, renewal

    private static Map<String, List<Class<?>>> testsByHarness() throws ClassNotFoundException {
        Map<String, List<Class<?>>> byHarness = new TreeMap<>();
        for (String name : JCStressRunner.select(CurriculumOptions.defaults())) {
            int dot = name.lastIndexOf('.');
            Class<?> nested = Class.forName(name.substring(0, dot) + "$" + name.substring(dot + 1));
            byHarness.computeIfAbsent(nested.getEnclosingClass().getSimpleName(), h -> new ArrayList<>()).add(nested);
        }
        return byHarness;
    }

    @Test
    void everyRequiredHarnessIsInTheGeneratedTestList() throws Exception {
        assertThat(testsByHarness().keySet()).containsAll(REQUIRED);
    }

    @Test
    void everyHarnessPairsTheCorrectLogicWithABrokenTarget() throws Exception {
        testsByHarness().forEach((harness, tests) -> {
            List<String> targets = tests.stream().map(c -> JcstressTargets.targetOf(c.getSimpleName())).toList();
            assertThat(targets).as(harness).contains(CorrectRelayLogic.ID);
            assertThat(targets.stream().filter(t -> !JcstressTargets.isCorrect(t))).as(harness).isNotEmpty();
            assertThat(JcstressTargets.known()).as(harness).containsAll(targets);
        });
    }

    @Test
    void outcomesAreDescribedWitnessedAndEndInAForbiddenCatchAll() throws Exception {
        for (List<Class<?>> tests : testsByHarness().values()) {
            Class<?> outer = tests.get(0).getEnclosingClass();
            for (Class<?> test : tests) {
                assertThat(test.getAnnotation(JCStressMeta.class).value()).as(test.getName()).isEqualTo(outer);
            }
            assertThat(outer.getAnnotation(Description.class)).as(outer.getName()).isNotNull();
            Outcome[] outcomes = outer.getAnnotationsByType(Outcome.class);
            assertThat(outcomes).as(outer.getName()).isNotEmpty();
            for (Outcome o : outcomes) {
                assertThat(o.desc()).as(outer.getName() + " " + List.of(o.id())).isNotBlank();
            }
            Outcome last = outcomes[outcomes.length - 1];
            assertThat(isCatchAll(last)).as(outer.getName() + " last outcome is the catch-all").isTrue();
            assertThat(last.expect()).as(outer.getName() + " catch-all").isEqualTo(Expect.FORBIDDEN);
            assertThat(List.of(outcomes)).as(outer.getName()).anyMatch(o -> o.expect() == Expect.ACCEPTABLE_INTERESTING)
                    .anyMatch(o -> o.expect() == Expect.FORBIDDEN && !isCatchAll(o));
            for (Outcome o : outcomes) {
                if (o.expect() == Expect.FORBIDDEN && !isCatchAll(o)) {
                    // a person reading the table learns which invariant a forbidden outcome breaks
                    assertThat(Stream.of(Invariant.values()).map(i -> "(" + i.name()).anyMatch(o.desc()::contains))
                            .as("%s %s names its invariant: %s", outer.getSimpleName(), List.of(o.id()), o.desc()).isTrue();
                }
            }
        }
    }

    /** An {@code @Outcome} without an id (jcstress stores it as one empty id) matches every other state. */
    private static boolean isCatchAll(Outcome o) {
        return o.id().length == 0 || (o.id().length == 1 && o.id()[0].isEmpty());
    }

    /** The summary maps class names to targets; this checks each state was built from that target. */
    @Test
    void everyNestedClassRunsTheTargetItsNameClaims() throws Exception {
        TreeSet<String> seen = new TreeSet<>();
        for (List<Class<?>> tests : testsByHarness().values()) {
            for (Class<?> test : tests) {
                String target = JcstressTargets.targetOf(test.getSimpleName());
                Harness state = (Harness) test.getConstructor().newInstance();
                RelayLogic logic = state.logic();
                Class<?> store = state.store().getClass();
                String where = test.getName();
                if (JcstressTargets.BROKEN_STORES.contains(target)) {
                    assertThat(logic.id()).as(where).isEqualTo(CorrectRelayLogic.ID);
                    assertThat(JcstressTargets.targetOf(store.getSimpleName())).as(where).isEqualTo(target);
                } else {
                    assertThat(logic.id()).as(where).isEqualTo(target);
                    if (state.store() instanceof ConcurrentRelayStore) {
                        Object expected = RelayStores.shipped(logic, List.of(), Map.of(), 1);
                        assertThat(store).as(where + " runs on the store that expresses its logic").isEqualTo(expected.getClass());
                    } else {
                        assertThat(store).as(where).isEqualTo(ProducerOutboxStore.class);
                    }
                }
                seen.add(target);
            }
        }
        TreeSet<String> expected = JcstressTargets.known();
        expected.removeAll(JcstressTargets.NOT_IN_CURRICULUM.keySet()); // the non-race variants, each with its reason
        assertThat(seen).as("the curriculum covers the correct logic, every catalogue variant a race shows and the 3 broken stores")
                .isEqualTo(expected);
    }

    /** Every harness also has the nested class that runs the user's target, and it is left out of the shipped run. */
    @Test
    void everyHarnessHasAUserTarget() throws Exception {
        List<String> user = JCStressRunner.select(".*").stream().filter(t -> t.endsWith("." + JcstressUserClasses.NESTED_CLASS)).toList();
        assertThat(user.stream().map(t -> t.substring(t.lastIndexOf('.', t.length() - JcstressUserClasses.NESTED_CLASS.length() - 2) + 1,
                t.lastIndexOf('.'))).toList()).isEqualTo(List.copyOf(testsByHarness().keySet()));
    }
}
