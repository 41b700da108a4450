package dev.relaycheck.checker.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code check --only sql} as a user runs it on the reference relay: the model checker, left out, does not run
 * (no "[model]" phase, no scenario in summary.json) and is not judged, so the run passes on the SQL checks alone,
 * and every part of the report says the model was not selected. Its negative control, a broken relay under
 * {@code --only sql} failing with the invariant named, is {@code SqlUserRelayTest#checkJudgesTheUsersRelayInTheSqlColumn}.
 */
class CheckOnlySqlTest {
    @TempDir
    static Path dir;

    @Test
    void onlySqlRunsNoModelSearchPassesOnTheSqlChecksAndSaysTheModelWasNotSelected() throws IOException {
        ChildCli.Run r = ChildCli.run(dir, "check", "--only", "sql", "--budget", "quick", "--controls", "no", "--db", "h2",
                "--results", "only-sql");
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).as("no model phase ran").doesNotContain("[model]").contains("[sql] conformance on ");
        assertThat(r.out()).contains("model checker not selected (--only sql): no exhaustive search ran")
                .doesNotContain("== model kill matrix").doesNotContain("ESCAPED")
                .containsPattern("(?m)^model +SKIPPED +not selected$").containsPattern("(?m)^sql +PASS +")
                .contains("PASS: the reference logic correct, model not selected; no variants run; verdict CLEAN");

        Path results = dir.resolve("only-sql");
        String json = Files.readString(results.resolve("summary.json"));
        assertThat(json).contains("\"verdict\": \"PASS\"").contains("\"scenarios\": [],").contains("\"counterexamples\": [],")
                .containsPattern("\"name\": \"model\",\\s+\"status\": \"SKIPPED\",\\s+\"note\": \"not selected\",\\s+\"rows\": \\[]")
                .contains("\"target\": \"correct\"");
        assertThat(Files.readString(results.resolve("summary.md"))).contains("Model: not selected, no search ran.")
                .contains("| 1 | `ack-ignores-token` | not run | not run | not run | - |");
        assertThat(Files.readString(results.resolve("index.html")))
                .contains("id=\"scenarios\">The model checker was not selected (--only)").doesNotContain("<table id=\"scenarios\"");

        // against a full run's summary (model included), the model's results are "not run", never worse or gone
        Path full = Path.of("src/test/resources/diff/before.json").toAbsolutePath();
        ChildCli.Run diff = ChildCli.run(dir, "diff", full.toString(), "only-sql");
        assertThat(diff.exit()).as(diff.toString()).isZero();
        assertThat(diff.out()).startsWith("relaycheck diff: NOT WORSE: 0 worse,").contains("model: not run in this run (")
                .doesNotContain("\nWORSE (").doesNotContain("GONE COUNTEREXAMPLES").doesNotContain("scenario ");
    }
}
