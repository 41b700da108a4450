package dev.relaycheck.lincheck;

import dev.relaycheck.model.summary.SummaryRow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * Writes results/lincheck/: one {@code <check>.<target>.txt} per failing run (the rerun command, the state
 * after each step, and Lincheck's own report) and {@code summary.tsv}. Contents depend only on the check,
 * the budget and the JVM: no timestamps, no timings.
 */
public final class ResultFiles {
    private final Path dir;

    public ResultFiles(Path dir) {
        this.dir = dir;
    }

    /**
     * The default folder: {@code -Dlincheck.results=DIR} if given, else {@code results/lincheck} under the first
     * folder upwards from the working directory that holds {@code results/README.md} (the repository root).
     */
    public static ResultFiles locate() {
        String explicit = System.getProperty("lincheck.results", "").strip();
        if (!explicit.isEmpty()) {
            return new ResultFiles(Path.of(explicit));
        }
        Path cwd = Path.of("").toAbsolutePath();
        for (Path p = cwd; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("results").resolve("README.md"))) {
                return new ResultFiles(p.resolve("results").resolve("lincheck"));
            }
        }
        return new ResultFiles(cwd.resolve("results").resolve("lincheck"));
    }

    public Path dir() {
        return dir;
    }

    public Path reportFile(String check, String target) {
        return dir.resolve(check + "." + target + ".txt");
    }

    /** Writes the report of a failing run, or removes a stale one when the run passed. Returns the file, or null. */
    public Path write(LincheckResult r, Target target, LincheckBudget budget) {
        Path file = reportFile(r.check(), r.target());
        try {
            if (!r.hasReport()) {
                Files.deleteIfExists(file);
                return null;
            }
            Files.createDirectories(dir);
            Files.writeString(file, report(r, target, budget), StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static String report(LincheckResult r, Target target, LincheckBudget budget) {
        StringBuilder b = new StringBuilder();
        b.append("check:   ").append(r.check()).append('\n');
        b.append("target:  ").append(r.target()).append(" (").append(target.description()).append(")\n");
        b.append("expect:  ").append(r.expect()).append("   verdict: ").append(r.verdict()).append('\n');
        b.append("detail:  ").append(r.detail()).append('\n');
        b.append("budget:  ").append(budget).append('\n');
        b.append("jvm:     ").append(System.getProperty("java.vendor")).append(' ').append(System.getProperty("java.version"))
                .append(" (Lincheck's model-checking seeds are fixed: the same JVM and budget replay this interleaving)\n");
        b.append("rerun:   ").append(rerunCommand(r.check(), target, budget)).append("\n\n");
        List<String> steps = TraceSteps.extract(r.outcome().report());
        if (!steps.isEmpty()) {
            b.append("== state after each step of the interleaving (execution order) ==\n");
            steps.forEach(s -> b.append(s).append('\n'));
            b.append('\n');
        }
        b.append("== Lincheck's report ==\n").append(r.outcome().report());
        return b.toString();
    }

    /** The command that reruns exactly this check on this target: the user's through the relaycheck CLI. */
    public static String rerunCommand(String check, Target target, LincheckBudget budget) {
        if (target.rerun().isEmpty()) {
            return rerunCommand(check, target.id(), budget);
        }
        StringBuilder b = new StringBuilder(target.rerun()).append(" --only ").append(check);
        budget.overrides().forEach(o -> b.append(" ").append(o));
        return b.toString();
    }

    /** The one command, run from the repository root, that reruns exactly this check on this target. */
    public static String rerunCommand(String check, String target, LincheckBudget budget) {
        StringBuilder b = new StringBuilder("mvn -q -pl lincheck-tests compile exec:exec -Dlincheck.only=")
                .append(check).append('/').append(target);
        budget.overrides().forEach(o -> b.append(' ').append(o));
        return b.toString();
    }

    /** Writes summary.tsv: one row per result, sorted by check then target. */
    public Path writeSummary(List<LincheckResult> results) {
        String text = SummaryRow.file(results.stream()
                .sorted(Comparator.comparing(LincheckResult::check).thenComparing(LincheckResult::target))
                .map(r -> new SummaryRow(r.check(), r.target(), r.expect(), r.verdict(), r.detail())).toList());
        Path file = dir.resolve("summary.tsv");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, text, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
