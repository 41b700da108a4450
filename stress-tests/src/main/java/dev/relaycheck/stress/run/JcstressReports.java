package dev.relaycheck.stress.run;

import dev.relaycheck.model.summary.SummaryRow;
import org.openjdk.jcstress.infra.runners.TestList;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes what a person and a tool read: {@code summary.tsv} (one row per harness and target),
 * {@code outcomes.tsv} (every outcome of every test with its count and grade, for the combined report's
 * histograms) and one plain-text file per harness with every outcome, its count, frequency and grade, sized
 * for a terminal or a pull request. Layout is fixed and rows are sorted; only the counts change between runs.
 */
public final class JcstressReports {
    public static final String SUMMARY_TSV = "summary.tsv";
    public static final String OUTCOMES_TSV = "outcomes.tsv";
    public static final String OUTCOMES_HEADER = "test\toutcome\tcount\tgrade\tdescription";

    private JcstressReports() {
    }

    public static List<JcstressRow> verdicts(List<TestRun> runs) {
        List<JcstressRow> rows = new ArrayList<>();
        runs.forEach(r -> rows.add(JcstressJudge.judge(r)));
        rows.sort(Comparator.comparing(JcstressRow::check).thenComparing(JcstressRow::target));
        return rows;
    }

    public static void writeSummaryTsv(Path out, List<JcstressRow> rows) throws IOException {
        Files.writeString(out.resolve(SUMMARY_TSV), SummaryRow.file(rows.stream().map(JcstressRow::row).toList()), StandardCharsets.UTF_8);
    }

    /** One row per outcome of each test, tests by name ({@code Harness.Variant}), outcomes by id. */
    public static void writeOutcomesTsv(Path out, List<TestRun> runs) throws IOException {
        StringBuilder sb = new StringBuilder(OUTCOMES_HEADER).append('\n');
        List<TestRun> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparing(TestRun::name));
        for (TestRun run : sorted) {
            for (OutcomeCount o : run.outcomes()) {
                sb.append(String.join("\t", run.harness() + "." + run.variant(), clean(o.id()),
                        Long.toString(o.count()), o.expect().name(), clean(o.description()))).append('\n');
            }
        }
        Files.writeString(out.resolve(OUTCOMES_TSV), sb.toString(), StandardCharsets.UTF_8);
    }

    private static String clean(String field) {
        return field.replaceAll("[\\t\\r\\n]+", " ");
    }

    /** One file per harness, {@code <Harness>.txt}; returns the files written, sorted. */
    public static List<Path> writeHarnessSummaries(Path out, List<TestRun> runs, String runDescription) throws IOException {
        Map<String, List<TestRun>> byHarness = new TreeMap<>();
        runs.forEach(r -> byHarness.computeIfAbsent(r.harness(), h -> new ArrayList<>()).add(r));
        List<Path> written = new ArrayList<>();
        for (Map.Entry<String, List<TestRun>> e : byHarness.entrySet()) {
            Path file = out.resolve(e.getKey() + ".txt");
            Files.writeString(file, harnessText(e.getKey(), e.getValue(), runDescription), StandardCharsets.UTF_8);
            written.add(file);
        }
        return written;
    }

    static String harnessText(String harness, List<TestRun> runs, String runDescription) {
        StringBuilder sb = new StringBuilder();
        sb.append(harness).append(": ").append(TestList.getInfo(runs.get(0).name()).description()).append('\n');
        sb.append(runDescription).append("\n");
        List<TestRun> ordered = new ArrayList<>(runs);
        // the correct logic first, then the broken targets by name
        ordered.sort(Comparator.comparing((TestRun r) -> !JcstressTargets.isCorrect(JcstressTargets.targetOf(r.variant())))
                .thenComparing(TestRun::variant));
        for (TestRun run : ordered) {
            JcstressRow v = JcstressJudge.judge(run);
            sb.append('\n').append(String.format(Locale.ROOT, "%s (%s): expect %s, verdict %s%n",
                    run.variant(), v.target(), v.expect(), v.verdict()));
            sb.append("  ").append(v.detail()).append('\n');
            sb.append(table(run));
        }
        return sb.toString();
    }

    private static String table(TestRun run) {
        int idWidth = "outcome".length();
        for (OutcomeCount o : run.outcomes()) {
            idWidth = Math.max(idWidth, o.id().length());
        }
        String row = "  %-" + idWidth + "s  %13s  %8s  %-22s  %s%n";
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, row, "outcome", "count", "freq", "grade", "description"));
        for (OutcomeCount o : run.outcomes()) {
            sb.append(String.format(Locale.ROOT, row, o.id(), String.format(Locale.ROOT, "%,d", o.count()),
                    frequency(o.count(), run.samples()), o.expect().name(), o.description()));
        }
        sb.append(String.format(Locale.ROOT, "  %,d samples, jcstress status %s%n", run.samples(), run.status()));
        run.messages().stream().limit(5).forEach(m -> sb.append("  ! ").append(m).append('\n'));
        return sb.toString();
    }

    static String frequency(long count, long total) {
        if (count == 0 || total == 0) {
            return "0%";
        }
        double pct = 100.0 * count / total;
        return pct < 0.01 ? "<0.01%" : String.format(Locale.ROOT, "%.2f%%", pct);
    }

    /** The verdict table printed at the end of a run. */
    public static String verdictTable(List<JcstressRow> rows) {
        int checkWidth = rows.stream().mapToInt(v -> v.check().length()).max().orElse(5);
        int targetWidth = rows.stream().mapToInt(v -> v.target().length()).max().orElse(6);
        StringBuilder sb = new StringBuilder();
        for (JcstressRow v : rows) {
            sb.append(String.format(Locale.ROOT, "  %-7s  %-" + checkWidth + "s  %-" + targetWidth + "s  %s%n",
                    v.verdict(), v.check(), v.target(), v.detail()));
        }
        return sb.toString();
    }
}
