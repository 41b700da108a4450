package dev.relaycheck.lincheck;

import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;

import java.util.List;

/**
 * Linearizability of the thread-safe store against the pure model with the correct logic
 * ({@link RelayStoreSpecification}), over {@link RelayStoreOperations}: the hazard scenarios, then random
 * scenarios from the parameter generators.
 *
 * <p>Model checking explores interleavings deterministically (Lincheck's seeds are fixed, so a failure
 * reproduces identically on the same JVM) and is pointed at every target. Stress mode runs real threads, so
 * whether it hits a narrow race is luck: it is pointed only at the correct store and at the targets whose
 * mistake a single thread already sees, where its verdict does not depend on the scheduler.
 */
public final class LinearizabilityCheck implements LincheckCheck {

    /** The two ways Lincheck runs the scenarios. */
    public enum Mode {
        MODEL_CHECKING("linearizability-model-checking"),
        STRESS("linearizability-stress");

        private final String id;

        Mode(String id) {
            this.id = id;
        }
    }

    private final Mode mode;

    public LinearizabilityCheck(Mode mode) {
        this.mode = mode;
    }

    @Override
    public String id() {
        return mode.id;
    }

    @Override
    public String description() {
        return mode == Mode.MODEL_CHECKING
                ? "the store is linearizable to the correct model in every interleaving Lincheck's model checker explores"
                : "the store is linearizable to the correct model on real threads (Lincheck stress mode)";
    }

    @Override
    public List<Target> targets() {
        List<Target> all = LincheckTargets.all();
        return mode == Mode.MODEL_CHECKING ? all : all.stream().filter(Target::sequential).toList();
    }

    @Override
    public RunOutcome run(Target target, LincheckBudget budget) {
        String explored = explored(budget);
        // a store without a snapshot is judged by its answers alone: no stock observer, no state in the trace
        Class<?> operations = target.hasSnapshot() ? RelayStoreOperations.class : OutcomeOnlyOperations.class;
        String how = operations == RelayStoreOperations.class ? "" : " (outcome-only: the store produces no snapshot)";
        return TargetUnderTest.during(target, () -> LincheckFailures.capture(
                () -> options(budget, operations).check(operations), "linearizable in " + explored + how, target.breaks()));
    }

    private String explored(LincheckBudget b) {
        String hazards = b.hazards() ? HazardScenarios.ALL.size() + " hazard + " : "";
        return mode == Mode.MODEL_CHECKING
                ? hazards + b.iterations() + " random scenarios, up to " + b.invocations() + " interleavings each"
                : hazards + b.stressIterations() + " random scenarios, " + b.stressInvocations() + " thread runs each";
    }

    private Options<?, ?> options(LincheckBudget b, Class<?> operations) {
        if (mode == Mode.MODEL_CHECKING) {
            ModelCheckingOptions o = new ModelCheckingOptions()
                    .iterations(b.iterations())
                    .invocationsPerIteration(b.invocations())
                    // the state view and the pollers' memory are the harness's, one atomic step each: no switches inside
                    .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(StateView.class.getName(), Grants.class.getName())
                            .allMethods().treatAsAtomic());
            return shape(o, b, operations);
        }
        StressOptions o = new StressOptions()
                .iterations(b.stressIterations())
                .invocationsPerIteration(b.stressInvocations());
        return shape(o, b, operations);
    }

    private static <O extends Options<O, ?>> O shape(O o, LincheckBudget b, Class<?> operations) {
        o.threads(2)
                .actorsPerThread(b.actorsPerThread())
                .actorsBefore(b.actorsBefore())
                .actorsAfter(b.actorsAfter())
                .sequentialSpecification(RelayStoreSpecification.class);
        if (b.hazards()) {
            HazardScenarios.ALL.forEach(h -> o.addCustomScenario(HazardScenarios.toLincheck(h, operations)));
        }
        return o;
    }
}
