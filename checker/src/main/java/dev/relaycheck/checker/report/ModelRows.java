package dev.relaycheck.checker.report;

import dev.relaycheck.checker.modelcheck.ModelCheck;
import dev.relaycheck.checker.search.SearchResult;
import dev.relaycheck.checker.trace.Counterexample;

import java.util.ArrayList;
import java.util.List;

/** The model checker's results in the summary.tsv shape every checker shares. */
public final class ModelRows {
    private ModelRows() {
    }

    public static CheckerRows of(ModelCheck.Outcome o) {
        List<CheckerRows.Row> rows = new ArrayList<>();
        for (SearchResult r : o.subject()) {
            rows.add(new CheckerRows.Row("bfs " + r.scenario().name(), r.logic().id(), "PASS",
                    r.passed() ? "PASS" : "FAILED", r.verdictLine()));
        }
        for (ModelCheck.VariantRow v : o.variants()) {
            Counterexample cx = v.firstCatch().orElse(null);
            rows.add(new CheckerRows.Row("bfs", v.variant().id(), "CATCH", cx == null ? "ESCAPED" : "CAUGHT",
                    cx == null ? "no scenario broke it" : cx.invariant() + " on " + cx.scenario().name() + " in "
                            + cx.path().size() + " steps"));
        }
        long states = o.subject().stream().mapToLong(SearchResult::states).sum();
        String note = "exhaustive search of " + o.subject().size() + " scenarios (" + String.format("%,d", states)
                + " distinct states for the logic under test) and of every catalogue variant";
        return new CheckerRows("model", o.passed() ? "PASS" : "FAIL", rows, note, "");
    }
}
