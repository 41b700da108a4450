package dev.relaycheck.checker.report;

import dev.relaycheck.checker.replay.ReplayLine;
import dev.relaycheck.checker.search.SearchResult;

import java.util.List;
import java.util.Optional;

/** results/summary.md: the verdict and the kill matrix, short enough for a pull request comment. No timings. */
public final class SummaryMarkdown {
    private static final java.util.regex.Pattern NAMED_INVARIANT = java.util.regex.Pattern.compile("\\(([A-Z_]{6,})\\)\\s*$");

    /** The matrix cell of a checker this run did not run. */
    static final String NOT_RUN = "not run";

    private SummaryMarkdown() {
    }

    /** The summary of a run that wrote its report under the default {@code results/}. */
    public static String render(Report r) {
        return render(r, java.nio.file.Path.of("results"), java.util.Optional.empty());
    }

    /**
     * The summary, pointing at the full report under {@code results} (the folder as the user named it); with a
     * baseline, what got worse and better since it comes first.
     */
    public static String render(Report r, java.nio.file.Path results, java.util.Optional<RunDiff> baseline) {
        StringBuilder b = new StringBuilder();
        baseline.ifPresent(d -> {
            b.append("## Before/after: ").append(d.headline()).append("\n\nCompared with `").append(d.before().source())
                    .append("` (logic `").append(d.before().logic()).append("`, ").append(d.before().verdict()).append(").\n\n");
            d.items().stream().filter(i -> i.kind() != RunDiff.Kind.CHANGED).forEach(i -> b.append("- **").append(i.kind())
                    .append("**: ").append(i.text()).append(i.sampled() ? " (sampled)" : "").append('\n'));
            b.append('\n');
        });
        b.append("## relaycheck: ").append(r.passed() ? "PASS" : "FAIL").append(" for ").append(r.about(id -> "`" + id + "`"))
                .append(r.passed() ? "" : " (" + r.verdict() + ")").append("\n\n");
        if (r.referenceLogic() && r.sqlRelay().isPresent()) {
            b.append(Report.referenceLogicLine(r.subject().id(), id -> "`" + id + "`")).append(".\n\n");
        }
        r.sqlRelay().ifPresent(s -> b.append(s.line()).append(".\n\n"));
        List<String> failures = r.failures();
        if (!failures.isEmpty()) {
            failures.forEach(f -> b.append("- **").append(f).append("**\n"));
            b.append('\n');
        }
        // the logic under test's own counterexamples, each as the line that replays it, ready to paste
        List<String> replays = r.model().subject().stream().flatMap(s -> s.counterexamples().stream()).map(ReplayLine::of).toList();
        if (!replays.isEmpty()) {
            b.append("Replay ").append(replays.size() == 1 ? "it" : "them").append(":\n\n```\n");
            replays.forEach(line -> b.append(line).append('\n'));
            b.append("```\n\n");
        }
        long passed = r.model().subject().stream().filter(SearchResult::passed).count();
        b.append(r.ran("model") ? String.format("Model: %d of %d scenarios passed exhaustively. Checkers: ", passed,
                r.model().subject().size()) : "Model: not selected, no search ran. Checkers: ");
        for (int i = 0; i < r.checkers().size(); i++) {
            CheckerRows c = r.checkers().get(i);
            b.append(i == 0 ? "" : ", ").append(c.checker()).append(' ').append(c.status());
        }
        b.append(".\n\n| # | variant |");
        for (String c : r.columns()) {
            b.append(' ').append(c).append(" |");
        }
        b.append("\n|---|---|");
        r.columns().forEach(c -> b.append("---|"));
        b.append('\n');
        int n = 0;
        for (String target : r.targets()) {
            b.append("| ").append(++n).append(" | `").append(target).append("` |");
            for (String c : r.columns()) {
                b.append(' ').append(r.notRun(c) ? NOT_RUN : cellText(r.cell(c, target))).append(" |");
            }
            b.append('\n');
        }
        b.append("\nCells: the invariant or forbidden outcome that caught the variant; `escaped`: run there and not caught; "
                + "`-`: that checker does not cover it; `" + NOT_RUN + "`: that checker did not run (not selected, or no "
                + "database), so it judged nothing. Full report: `" + results.resolve("index.html") + "`.\n");
        for (String note : r.notes()) {
            b.append("\n> ").append(note).append('\n');
        }
        return b.toString();
    }

    static String cellText(Optional<CheckerRows.Row> cell) {
        if (cell.isEmpty()) {
            return "-";
        }
        CheckerRows.Row row = cell.get();
        if (row.notApplicable()) {
            return "n/a"; // no counterpart on that database (the row's detail says why)
        }
        if (!row.caught()) {
            return "escaped";
        }
        String d = row.detail();
        java.util.regex.Matcher named = NAMED_INVARIANT.matcher(d);
        if (named.find()) {
            return named.group(1); // a checker that names the invariant its observation breaks
        }
        int cut = d.indexOf(' ');
        return cut > 0 ? d.substring(0, cut) : d;
    }
}
