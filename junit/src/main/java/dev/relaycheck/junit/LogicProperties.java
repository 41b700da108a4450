package dev.relaycheck.junit;

import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.model.RelayLogic;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;

/**
 * Property checks of a relay logic on the model: the logic searched exhaustively on the property's scenarios,
 * then every catalogue mistake that must break the property searched the same way, each of which must be caught.
 * A failure of the logic shows the explorer's trace and replay line; an escaped mistake says the check could
 * not have failed.
 */
public final class LogicProperties {
    private final RelayLogic logic;

    LogicProperties(RelayLogic logic) {
        this.logic = logic;
    }

    public LogicProperties deliversEachEffectOnce() {
        return check(Property.EACH_EFFECT_ONCE);
    }

    public LogicProperties keepsAggregateOrder() {
        return check(Property.AGGREGATE_ORDER);
    }

    public LogicProperties rejectsStaleAcks() {
        return check(Property.STALE_ACKS_REJECTED);
    }

    public LogicProperties producesAtomically() {
        return check(Property.ATOMIC_PRODUCE);
    }

    /** Checks {@code p} on the logic, then proves the check can fail with its negative controls. */
    public LogicProperties check(Property p) {
        String[] scenarios = p.scenarios().toArray(String[]::new);
        ModelCheckResult mine = ModelChecker.of(logic).scenarios(scenarios).reportName(logic.id() + "." + p).check();
        List<String> failures = new ArrayList<>();
        for (SearchResult r : mine.results()) {
            if (!r.passed()) {
                String why = r.counterexample().map(c -> p.brokenBy(c.invariant()) ? "" : " (not one of this property's "
                        + "invariants, but the search stops at the first violation: fix it first)").orElse("");
                failures.add(r.verdictLine() + " in scenario " + r.scenario().name() + why + "\n"
                        + ModelCheckResult.explain(r).orElse(""));
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionFailedError("relaycheck: logic " + logic.id() + " breaks the property \"" + p.claim() + "\" "
                    + p.invariants() + "\n" + failures.get(0) + (failures.size() > 1 ? "\n(and " + (failures.size() - 1)
                    + " more scenarios: see the report)" : "") + "\n  report: " + mine.report() + "\n");
        }
        List<String> escaped = new ArrayList<>();
        for (RelayLogic control : p.negativeControls()) {
            ModelCheckResult theirs = ModelChecker.of(control).scenarios(scenarios).reportName(control.id() + "." + p).check();
            if (theirs.counterexamples().stream().noneMatch(c -> p.brokenBy(c.invariant()))) {
                escaped.add(control.id());
            }
        }
        if (!escaped.isEmpty()) {
            throw new AssertionFailedError("relaycheck: the check that logic " + logic.id() + " has the property \"" + p.claim() + "\" cannot fail: "
                    + "the catalogue mistakes " + escaped + " got through it on " + p.scenarios());
        }
        return this;
    }
}
