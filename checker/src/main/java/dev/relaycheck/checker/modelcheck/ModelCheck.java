package dev.relaycheck.checker.modelcheck;

import dev.relaycheck.checker.search.BreadthFirstSearch;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.space.Judging;
import dev.relaycheck.checker.trace.Counterexample;
import dev.relaycheck.model.Invariant;
import dev.relaycheck.model.RelayLogic;
import dev.relaycheck.model.Scenario;
import dev.relaycheck.model.catalogue.LogicCatalogue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code relaycheck check} runs on the model: the logic under test searched exhaustively on every
 * scenario (it must pass, reaching every required witness; every invariant it breaks is reported), and every
 * catalogue variant on every scenario (each must be caught somewhere: its search ends at its first violation),
 * giving the variant-by-scenario kill matrix.
 */
public final class ModelCheck {

    /** The logic under test's results and one row of results per catalogue variant. */
    public record Outcome(List<SearchResult> subject, List<VariantRow> variants) {
        public boolean subjectPassed() {
            return subject.stream().allMatch(SearchResult::passed);
        }

        public List<VariantRow> escaped() {
            return variants.stream().filter(v -> v.firstCatch().isEmpty()).toList();
        }

        public boolean passed() {
            return subjectPassed() && escaped().isEmpty();
        }
    }

    /** One variant across the scenarios. */
    public record VariantRow(RelayLogic variant, List<SearchResult> results) {
        /** The shortest counterexample over the scenarios (fewest steps; ties: scenario order). */
        public Optional<Counterexample> firstCatch() {
            Counterexample best = null;
            for (SearchResult r : results) {
                if (r.counterexample().isPresent()
                        && (best == null || r.counterexample().get().path().size() < best.path().size())) {
                    best = r.counterexample().get();
                }
            }
            return Optional.ofNullable(best);
        }

        /** Whether some scenario reports the invariant the catalogue says this variant breaks. */
        public boolean caughtAsExpected() {
            Invariant expected = variant.expectedViolation().orElse(null);
            return results.stream().anyMatch(r -> r.counterexample().map(c -> c.invariant() == expected).orElse(false));
        }
    }

    private final BreadthFirstSearch bfs;

    public ModelCheck(BreadthFirstSearch bfs) {
        this.bfs = bfs;
    }

    /** Told before each search how many of all are done; for a progress line only. */
    @FunctionalInterface
    public interface Searches {
        Searches NONE = (done, total, logic, scenario) -> { };

        void starting(int done, int total, String logic, String scenario);
    }

    public Outcome run(RelayLogic subject, List<Scenario> scenarios) {
        return run(subject, scenarios, Searches.NONE);
    }

    public Outcome run(RelayLogic subject, List<Scenario> scenarios, Searches progress) {
        int total = scenarios.size() * (1 + LogicCatalogue.variants().size());
        int done = 0;
        List<SearchResult> mine = new ArrayList<>();
        for (Scenario s : scenarios) {
            progress.starting(done++, total, subject.id(), s.name());
            mine.add(bfs.search(subject, s));
        }
        List<VariantRow> rows = new ArrayList<>();
        BreadthFirstSearch caught = bfs.judging(Judging.FIRST); // a mistake needs catching once: its first violation
        for (RelayLogic v : LogicCatalogue.variants()) {
            List<SearchResult> results = new ArrayList<>();
            for (Scenario s : scenarios) {
                progress.starting(done++, total, v.id(), s.name());
                results.add(caught.search(v, s));
            }
            rows.add(new VariantRow(v, results));
        }
        progress.starting(done, total, "", "");
        return new Outcome(mine, rows);
    }

    /** Short column names for the matrix. */
    public static String abbreviation(Invariant i) {
        return switch (i) {
            case EFFECT_AT_MOST_ONCE -> "EFFECT";
            case MARKER_IFF_EFFECT -> "MARKER";
            case STALE_ACK_REJECTED -> "STALE";
            case NO_LOST_EVENT -> "LOST";
            case PRODUCE_ATOMIC -> "PRODUCE";
            case AGGREGATE_ORDER -> "ORDER";
            case SINGLE_LIVE_LEASE -> "LEASE";
            case EVENTUAL_DELIVERY -> "LIVE";
        };
    }

    /** The kill matrix as fixed-width text: variants down, scenarios across. */
    public static String matrix(Outcome o, List<Scenario> scenarios) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("%-3s %-28s", "#", "variant"));
        for (int i = 0; i < scenarios.size(); i++) {
            b.append(String.format(" %-8s", "S" + (i + 1)));
        }
        b.append("  verdict\n");
        int n = 0;
        for (VariantRow row : o.variants()) {
            b.append(String.format("%-3d %-28s", ++n, row.variant().id()));
            for (SearchResult r : row.results()) {
                b.append(String.format(" %-8s", r.counterexample().map(c -> abbreviation(c.invariant()))
                        .orElse(r.incomplete().isPresent() ? "bound" : r.missingWitnesses().isEmpty() ? "." : "vacuous")));
            }
            b.append("  ").append(row.firstCatch().isEmpty() ? "ESCAPED"
                    : row.caughtAsExpected() ? "caught" : "caught (not as " + row.variant().expectedViolation().map(ModelCheck::abbreviation).orElse("?") + ")");
            b.append('\n');
        }
        for (int i = 0; i < scenarios.size(); i++) {
            b.append(String.format("S%d = %s%n", i + 1, scenarios.get(i).name()));
        }
        b.append("cells: the invariant the shortest counterexample broke; '.' = no violation; "
                + "'vacuous' = required witnesses not reached; 'bound' = a bound (--max-states or the heap) stopped the search\n");
        return b.toString();
    }
}
