package dev.relaycheck.lincheck;

import org.jetbrains.lincheck.Lincheck;

import java.util.List;

/**
 * The relay protocol under Lincheck's general-purpose model checker ({@code Lincheck.runConcurrentTest}):
 * see {@link ProtocolRound}. It is pointed at the correct store and at the three broken stores.
 *
 * <p>Its exploration is far narrower than the data-structure model checker's: in trials it never scheduled a
 * second claim between another poller's claim and ack, so logic variants that need exactly that (a claim that
 * ignores the lease, a consumer without dedup) escape it; they are caught by the linearizability checks.
 * An earlier trial found it unreliable on JDK 25 (this round catches all three stores on Temurin 25), so
 * nothing else depends on it. It needs hundreds of interleavings to reach the narrower races: in a trial the
 * read-then-write ack escaped with 200 and was caught with 400; the default is 600.
 */
public final class RelayProtocolCheck implements LincheckCheck {

    @Override
    public String id() {
        return "relay-protocol";
    }

    @Override
    public String description() {
        return "two pollers claim, deliver and ack while a third thread ticks; the model's invariants hold at the end";
    }

    @Override
    public List<Target> targets() {
        return LincheckTargets.all().stream().filter(t -> t.kind() != Target.Kind.BROKEN_LOGIC).toList();
    }

    @Override
    public java.util.Optional<String> cannotRun(Target target) {
        return target.hasSnapshot() ? java.util.Optional.empty() : java.util.Optional.of(
                "the protocol check judges the final state by the model's invariants, and " + target.id()
                        + " produces no snapshot (RelayStore.snapshot() is empty)");
    }

    @Override
    public RunOutcome run(Target target, LincheckBudget budget) {
        return LincheckFailures.capture(
                () -> Lincheck.runConcurrentTest(budget.protocolInvocations(), () -> ProtocolRound.play(target)),
                "every invariant held in " + budget.protocolInvocations() + " interleavings", target.breaks());
    }
}
