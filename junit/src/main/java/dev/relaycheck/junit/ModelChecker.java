package dev.relaycheck.junit;

import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.Progress;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.space.Judging;
import dev.relaycheck.model.CheckedLogic;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.ReferenceScenarios;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.ScenarioFiles;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * relaycheck's model checker from a test, in the style of Lincheck's {@code ModelCheckingOptions().check(...)}:
 * the logic searched exhaustively (breadth first, so a counterexample is a shortest one) on shipped scenarios or
 * scenario files, giving a {@link ModelCheckResult} whose assertions fail with the trace and the replay line. Every
 * invariant broken is reported, each with its shortest trace; {@link #invariants} judges some only.
 * {@link CheckRelayLogic} is the same as an annotation.
 *
 * <pre>{@code
 * ModelChecker.of(MyRelayLogic.class).scenarios("double-claim", "src/test/resources/two-skus.scenario").check().assertPassed();
 * }</pre>
 */
public final class ModelChecker {
    /** Heal from every 8th state, as {@code relaycheck check} does. */
    private static final int HEAL_EVERY = 8;

    private final RelayLogic logic;
    private final List<Scenario> scenarios = new ArrayList<>();
    private int maxStates = BreadthFirstSearch.HEAP_BOUND;
    private String reportName;
    private java.time.Duration decisionTimeout; // null: DecisionWatch's (10 s, or -Drelaycheck.decisionTimeout)
    private Set<Invariant> judged = EnumSet.allOf(Invariant.class);
    private boolean firstViolation;

    private ModelChecker(RelayLogic logic) {
        JUnitVersion.require();
        this.logic = logic;
    }

    /** A logic instance; a team's own logic is wrapped in the contract check (it must be a function that does not throw). */
    public static ModelChecker of(RelayLogic logic) {
        boolean shipped = LogicCatalogue.byId(logic.id()).map(l -> l.getClass() == logic.getClass()).orElse(false);
        return new ModelChecker(shipped || logic instanceof CheckedLogic ? logic : CheckedLogic.of(logic));
    }

    /** A logic class with a public no-argument constructor. */
    public static ModelChecker of(Class<? extends RelayLogic> type) {
        try {
            return of(type.getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot instantiate " + type.getName()
                    + " (it needs a public no-argument constructor that succeeds): " + (e.getCause() != null ? e.getCause() : e));
        }
    }

    /** A shipped logic by id: {@code correct} or a catalogue variant ({@code relaycheck variants}). */
    public static ModelChecker ofCatalogue(String id) {
        return new ModelChecker(LogicCatalogue.byId(id).orElseThrow(() -> new IllegalArgumentException("unknown logic id '" + id
                + "' (see relaycheck variants)")));
    }

    /** Shipped scenario names ({@code relaycheck scenarios}) or scenario files ({@code relaycheck scenarios --show NAME}). */
    public ModelChecker scenarios(String... namesOrFiles) {
        for (String s : namesOrFiles) {
            try {
                scenarios.add(ScenarioFiles.resolve(s));
            } catch (ScenarioFiles.BadScenario e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        return this;
    }

    /** A scenario built in the test ({@code Scenario.builder(name)...build()}). */
    public ModelChecker scenario(Scenario s) {
        scenarios.add(s);
        return this;
    }

    /** Stops a search at this many distinct states (INCOMPLETE); default: what the heap holds. */
    public ModelChecker maxStates(int n) {
        maxStates = n;
        return this;
    }

    /** The report's file name under target/relaycheck/model/ (default: the test on the call stack, or the logic's id). */
    public ModelChecker reportName(String name) {
        reportName = name;
        return this;
    }

    /**
     * How long one decision of the logic may take before the check fails as a LOGIC-ERROR naming it (default 10 s,
     * or {@code -Drelaycheck.decisionTimeout=SECONDS}): the one time-based limit of a check.
     */
    public ModelChecker decisionTimeout(java.time.Duration limit) {
        decisionTimeout = limit;
        return this;
    }

    /**
     * Judges only these invariants (default: all): a violation of another is none to this check, and the search goes
     * on through it, so it cannot hide one of these behind it.
     */
    public ModelChecker invariants(Invariant... invariants) {
        return invariants(EnumSet.copyOf(List.of(invariants)));
    }

    /** {@link #invariants(Invariant...)} as a set. */
    public ModelChecker invariants(Set<Invariant> invariants) {
        judged = EnumSet.copyOf(invariants);
        return this;
    }

    /** Ends each search at its first violation (a negative control needs catching once). */
    ModelChecker firstViolation() {
        firstViolation = true;
        return this;
    }

    RelayLogic logic() {
        return logic;
    }

    /** The scenarios to search: those given, or {@code relaycheck check}'s (every shipped one but soak). */
    List<Scenario> scenarioList() {
        return scenarios.isEmpty() ? ReferenceScenarios.defaults() : List.copyOf(scenarios);
    }

    /** Searches every scenario and writes the report under target/relaycheck/model/. */
    public ModelCheckResult check() {
        BreadthFirstSearch bfs = new BreadthFirstSearch(maxStates, HEAL_EVERY, 1, Progress.NONE)
                .judging(new Judging(judged, !firstViolation));
        String name = reportName != null ? reportName : TestReplay.find().map(TestReplay::fileName).orElse(logic.id());
        List<Scenario> scenarios = scenarioList();
        List<SearchResult> results = LogicGuard.run(decisionTimeout, () -> {
            List<SearchResult> found = new ArrayList<>();
            for (Scenario s : scenarios) {
                found.add(bfs.search(logic, s));
            }
            return found;
        });
        return ModelCheckResult.of(logic, results, name);
    }
}
