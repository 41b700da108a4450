package dev.relaycheck.junit;

import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Witness;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Property checks of a relay logic on the model: the logic searched exhaustively on the property's scenarios, judged
 * on the property's invariants alone (a violation of another is none to the check, which goes on through it), then
 * every catalogue mistake that must break the property searched the same way, each of which must be caught. A
 * failure shows every invariant of the property broken, each with the explorer's trace and replay line; an escaped
 * mistake says the check could not have failed. Every result, pass or fail, names what it ran and what it did not
 * ({@link Coverage}): one line on the test's output, in the failure message, and in {@link #results()}.
 */
public final class LogicProperties {
    private final RelayLogic logic;
    private final List<PropertyResult> results = new ArrayList<>();

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

    /** The properties checked so far, in order, each with what it ran and left out. */
    public List<PropertyResult> results() {
        return List.copyOf(results);
    }

    /** Checks {@code p} on the logic, then proves the check can fail with its negative controls. */
    public LogicProperties check(Property p) {
        String[] scenarios = p.scenarios().toArray(String[]::new);
        ModelCheckResult mine = ModelChecker.of(logic).scenarios(scenarios).invariants(p.invariants())
                .reportName(logic.id() + "." + p).check();
        Set<Witness> reached = EnumSet.noneOf(Witness.class);
        mine.results().forEach(r -> r.witnesses().forEach((w, n) -> {
            if (n > 0) {
                reached.add(w);
            }
        }));
        PropertyResult result = new PropertyResult("logic " + logic.id(), p, mine.passed(), Coverage.of(
                mine.results().stream().map(SearchResult::scenario).toList(), reached, List.of()));
        results.add(result);
        System.out.println(result.line());
        List<String> failures = new ArrayList<>();
        for (SearchResult r : mine.results()) {
            if (!r.passed()) {
                failures.add(r.verdictLine() + " in scenario " + r.scenario().name() + "\n" + ModelCheckResult.explain(r).orElse(""));
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionFailedError(result.line() + "\n" + failures.get(0) + (failures.size() > 1 ? "\n(and "
                    + (failures.size() - 1) + " more scenarios: see the report)" : "") + "\n  report: " + mine.report() + "\n");
        }
        List<String> escaped = new ArrayList<>();
        for (RelayLogic control : p.negativeControls()) {
            ModelCheckResult theirs = ModelChecker.of(control).scenarios(scenarios).invariants(p.invariants()).firstViolation()
                    .reportName(control.id() + "." + p).check();
            if (theirs.counterexamples().isEmpty()) {
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
