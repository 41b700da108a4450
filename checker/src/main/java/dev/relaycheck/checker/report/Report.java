package dev.relaycheck.checker.report;

import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.search.Verdict;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.CorrectRelayLogic;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Everything one {@code relaycheck check} found, from every checker, and the verdict drawn from it. The
 * verdict is FAIL when the logic under test broke anywhere, when a checker could not run to completion,
 * or when a catalogue variant that a checker of this run covers escaped every checker. A checker left out
 * ({@code --only}) is not run and not judged: a variant only it covers is no failure of this run.
 */
public record Report(RelayLogic subject, ModelCheck.Outcome model, List<CheckerRows> checkers,
                     List<Histogram> histograms, List<String> notes, Optional<SqlRelayUnderTest> sqlRelay,
                     List<SqlFinding> sqlFindings, Optional<String> codeRelay) {

    public static final List<String> CHECKER_ORDER = List.of("model", "jcstress", "lincheck", "sql");

    public Report {
        checkers = List.copyOf(checkers);
        histograms = List.copyOf(histograms);
        notes = List.copyOf(notes);
        sqlFindings = List.copyOf(sqlFindings);
    }

    /** Without a relay checked by its own code. */
    public Report(RelayLogic subject, ModelCheck.Outcome model, List<CheckerRows> checkers, List<Histogram> histograms,
                  List<String> notes, Optional<SqlRelayUnderTest> sqlRelay, List<SqlFinding> sqlFindings) {
        this(subject, model, checkers, histograms, notes, sqlRelay, sqlFindings, Optional.empty());
    }

    /** Without SQL findings to draw. */
    public Report(RelayLogic subject, ModelCheck.Outcome model, List<CheckerRows> checkers, List<Histogram> histograms,
                  List<String> notes, Optional<SqlRelayUnderTest> sqlRelay) {
        this(subject, model, checkers, histograms, notes, sqlRelay, List.of());
    }

    /** A report whose SQL checks (if any ran) drove the reference relay. */
    public Report(RelayLogic subject, ModelCheck.Outcome model, List<CheckerRows> checkers, List<Histogram> histograms,
                  List<String> notes) {
        this(subject, model, checkers, histograms, notes, Optional.empty());
    }

    /** What the report is about, in plain text: {@link #about(UnaryOperator)} with the names as they are. */
    public String about() {
        return about(UnaryOperator.identity());
    }

    /**
     * What the run checked of the team's, each name put through {@code name} (quoted for markdown): their logic, their
     * SQL relay, or both. Without a logic of theirs the logic-level checkers ran relaycheck's reference logic, which is
     * then named as that, never as the thing under test beside their relay.
     */
    public String about(UnaryOperator<String> name) {
        String relay = String.join(" and ", java.util.stream.Stream.of(codeRelay.map(c -> "the relay " + name.apply(c) + " by its own code"),
                sqlRelay.map(s -> "the SQL relay " + name.apply(s.id()))).flatMap(Optional::stream).toList());
        if (referenceLogic()) {
            return relay.isEmpty() ? "the reference logic " + name.apply(subject.id()) : relay;
        }
        return name.apply(subject.id()) + (relay.isEmpty() ? "" : " and " + relay);
    }

    /** The line that says the logic-level checkers ran relaycheck's reference logic, its id put through {@code name}. */
    public static String referenceLogicLine(String id, UnaryOperator<String> name) {
        return "Logic: relaycheck's reference logic " + name.apply(id) + " (no --logic given)";
    }

    /** Whether the logic the run checked is relaycheck's own reference logic (no --logic given), not a team's. */
    public boolean referenceLogic() {
        return subject.getClass() == CorrectRelayLogic.class;
    }

    /**
     * The matrix's columns: the checkers in {@link #CHECKER_ORDER}, then any other checker that ran (the SQL
     * checks on a second database, {@code sql-postgres}), so each database gets its own column.
     */
    public List<String> columns() {
        List<String> c = new ArrayList<>(CHECKER_ORDER);
        checkers.stream().map(CheckerRows::checker).filter(n -> !c.contains(n)).forEach(c::add);
        return c;
    }

    /** Catalogue ids and broken-store names, the matrix's rows. */
    public List<String> targets() {
        List<String> t = new ArrayList<>();
        LogicCatalogue.variants().forEach(v -> t.add(v.id()));
        for (CheckerRows c : checkers) {
            for (CheckerRows.Row r : c.rows()) {
                if (r.expect().equals("CATCH") && !t.contains(r.target())) {
                    t.add(r.target());
                }
            }
        }
        return t;
    }

    /** The matrix cell: which checker caught a target, with what, or that it escaped, or empty if not run there. */
    public Optional<CheckerRows.Row> cell(String checker, String target) {
        return checkers.stream().filter(c -> c.checker().equals(checker)).findFirst()
                .flatMap(c -> c.forTarget(target).stream().filter(r -> r.expect().equals("CATCH"))
                        .sorted((a, b) -> Boolean.compare(b.caught(), a.caught())).findFirst());
    }

    public boolean caughtSomewhere(String target) {
        return checkers.stream().anyMatch(c -> c.forTarget(target).stream().anyMatch(CheckerRows.Row::caught));
    }

    /** Whether the checker ran in this run: it has a column that is not SKIPPED (not selected, or no database). */
    public boolean ran(String checker) {
        return checkers.stream().anyMatch(c -> c.checker().equals(checker) && !c.skipped());
    }

    /** Whether the matrix column is a checker this run did not run (its cells say so, not "does not cover it"). */
    public boolean notRun(String column) {
        return checkers.stream().anyMatch(c -> c.checker().equals(column) && c.skipped());
    }

    /**
     * Whether some checker of this run tried to catch the target: a CATCH row that is not N/A. Only such a target
     * is judged; without the model (which tries every catalogue variant) a variant no selected checker covers
     * is not run, which is neither a catch nor an escape.
     */
    public boolean covered(String target) {
        return checkers.stream().flatMap(c -> c.forTarget(target).stream())
                .anyMatch(r -> r.expect().equals("CATCH") && !r.notApplicable());
    }

    /**
     * The catalogue variants this run covered and caught nowhere: escaped, or only left open by a time limit
     * (a CATCH row INCONCLUSIVE, unconfirmed), which is no finding either way.
     */
    private List<Uncaught> uncaught() {
        List<Uncaught> out = new ArrayList<>();
        for (RelayLogic v : LogicCatalogue.variants()) {
            if (covered(v.id()) && !caughtSomewhere(v.id())) {
                boolean open = checkers.stream().flatMap(c -> c.forTarget(v.id()).stream())
                        .anyMatch(r -> r.expect().equals("CATCH") && r.inconclusive());
                out.add(new Uncaught(v.id(), open));
            }
        }
        return out;
    }

    private record Uncaught(String variant, boolean inconclusive) {
        String failure() {
            return "catalogue variant " + variant + (inconclusive
                    ? " was caught by no checker, and a time limit left a run of it inconclusive"
                    : " escaped every checker");
        }
    }

    public List<String> failures() {
        List<String> out = new ArrayList<>();
        for (SearchResult r : model.subject()) {
            if (!r.passed()) {
                out.add(subject.id() + " on " + r.scenario().name() + ": " + r.verdictLine());
            }
        }
        for (CheckerRows c : checkers) {
            if (c.status().equals("FAIL") && c.rows().isEmpty()) {
                out.add(c.checker() + " did not complete: " + c.note());
            }
            for (CheckerRows.Row r : c.rows()) {
                // the model's rows of the logic under test repeat the scenario lines above
                if (r.expect().equals("PASS") && !r.verdict().equals("PASS") && !c.checker().equals("model")) {
                    out.add(c.checker() + " " + r.check() + " on " + r.target() + ": " + r.verdict() + " " + r.detail());
                }
            }
        }
        uncaught().forEach(u -> out.add(u.failure()));
        return out;
    }

    public boolean passed() {
        return failures().isEmpty();
    }

    /**
     * The run's verdict, by {@link Verdict}'s precedence: the logic under test's verdicts on the scenarios; a
     * checker that did not complete, or a row of the logic under test left INCONCLUSIVE by a time-based limit
     * (see {@link CheckerRows.Row#inconclusive()}), makes it at least INCOMPLETE; a checker's failing row or a catalogue
     * variant that escaped every checker that covered it makes it a VIOLATION (of the harness, if not of the logic).
     * A covered variant caught nowhere with a run of it left inconclusive by a time limit makes it INCOMPLETE.
     */
    public Verdict verdict() {
        List<Verdict> all = new ArrayList<>();
        model.subject().forEach(r -> all.add(Verdict.of(r)));
        for (CheckerRows c : checkers) {
            if (c.status().equals("FAIL") && c.rows().isEmpty()) {
                all.add(Verdict.INCOMPLETE);
            }
            for (CheckerRows.Row r : c.rows()) {
                if (r.expect().equals("PASS") && !r.verdict().equals("PASS")) {
                    // a time-based limit that was never confirmed is no finding about the logic: not a violation
                    all.add(r.inconclusive() ? Verdict.INCOMPLETE : Verdict.VIOLATION);
                }
            }
        }
        uncaught().forEach(u -> all.add(u.inconclusive() ? Verdict.INCOMPLETE : Verdict.VIOLATION));
        return Verdict.worst(all);
    }

    /** Counterexamples to draw: the logic under test's (every invariant it broke), then the shortest per catalogue variant. */
    public List<Counterexample> counterexamples() {
        List<Counterexample> out = new ArrayList<>();
        model.subject().forEach(r -> out.addAll(r.counterexamples()));
        model.variants().forEach(v -> v.firstCatch().ifPresent(out::add));
        return out;
    }
}
