package com.example.gruelbox;

import dev.relaycheck.checker.cli.ChildCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static dev.relaycheck.checker.cli.ChildCli.runAsUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * gruelbox transaction-outbox 4.2.268 through relaycheck's public commands only, in a child JVM as a team runs
 * them, on H2 and on a real PostgreSQL server (README.md in this folder says what each finding means):
 * <ul>
 *   <li>{@code relaycheck check} with the handler writing its effect through gruelbox's transaction passes:
 *       conformance, races and a SIGKILL at every cut point (the two inside gruelbox's processing transaction
 *       included), and the report names the gruelbox relay, what it was held to and AGGREGATE_ORDER as "not
 *       promised" (checked, reported, never a failure);</li>
 *   <li>{@code relaycheck check} with a handler whose effect commits elsewhere fails with EFFECT_AT_MOST_ONCE: the
 *       relay killed after the effect and before gruelbox's delete commits applies it again;</li>
 *   <li>on PostgreSQL with idle_in_transaction_session_timeout shorter than a stalled handler, the database ends
 *       the transaction holding the row lock: harmless with the effect inside, a duplicate effect outside.</li>
 * </ul>
 * The check runs {@code --only sql --budget quick --controls no}, what keeps the two checks to a few minutes of
 * CI: jcstress and Lincheck race the shipped logic and store, where nothing of gruelbox runs (minutes for no finding
 * about it); the quick budget still kills the relay at every cut point (50 conformance seeds per scenario on H2, 3 on
 * PostgreSQL, one race round); the shipped broken SQL variants, which prove relaycheck's SQL checks on each database
 * and not gruelbox, are the jdbc module's tests and the reference check's (they doubled the run here). The model
 * checker, left out, does not run either (its search of the reference logic and the catalogue took most of a
 * minute and judged nothing of gruelbox): the verdict is the SQL checks' on gruelbox alone. The two checks
 * start together, in two child JVMs, when the class starts: much of a check waits on databases, lease ticks and
 * killed children, so they overlap.
 */
class GruelboxCheckTest {
    static final String PACKAGE = "com.example.gruelbox.relaycheck.";
    static final String SAFE = PACKAGE + "GruelboxAdapter";
    static final String EXTERNAL = PACKAGE + "ExternalEffectGruelboxAdapter";
    static final String NOT_PROMISED = "not promised by this relay (checked, reported, never a failure): AGGREGATE_ORDER";
    static final Path SAFE_RESULTS = Path.of("target", "check-safe");
    static final Path EXTERNAL_RESULTS = Path.of("target", "check-external");

    private static ExecutorService checks;
    private static CompletableFuture<ChildCli.Run> safeCheck;
    private static CompletableFuture<ChildCli.Run> externalCheck;

    @BeforeAll
    static void startBothChecks() {
        checks = Executors.newFixedThreadPool(2);
        safeCheck = CompletableFuture.supplyAsync(() -> check(SAFE, SAFE_RESULTS), checks);
        externalCheck = CompletableFuture.supplyAsync(() -> check(EXTERNAL, EXTERNAL_RESULTS), checks);
    }

    @AfterAll
    static void stopTheChecks() {
        checks.shutdown();
    }

    /** What a user passes as --classpath: the adapter's classes, gruelbox and its dependencies. */
    static String adapterClasspath() throws IOException {
        return Path.of("target", "classes").toAbsolutePath() + File.pathSeparator
                + Files.readString(Path.of("target", "gruelbox.classpath"), StandardCharsets.UTF_8).strip();
    }

    static List<String> databases() {
        return ChildCli.postgresHere() ? List.of("h2", "postgres") : List.of("h2");
    }

    static ChildCli.Run check(String adapter, Path results) {
        String classpath;
        try {
            classpath = adapterClasspath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return runAsUser("check", "--adapter", adapter, "--classpath", classpath, "--db", String.join(",", databases()),
                "--only", "sql", "--budget", "quick", "--controls", "no", "--results", results.toString());
    }

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    @Test
    void checkPassesTheHandlerWritingThroughGruelboxsTransactionOnBothDatabases() throws Exception {
        Path results = SAFE_RESULTS;
        ChildCli.Run r = safeCheck.join();
        assertThat(r.exit()).as(r.toString()).isZero();
        assertThat(r.err()).as("the model, not selected, ran no search").doesNotContain("[model]");
        assertThat(r.out()).contains("## relaycheck: PASS for the SQL relay `" + SAFE + "`")
                .contains("SQL relay under test: " + SAFE + ": invariants checked: EFFECT_AT_MOST_ONCE, MARKER_IFF_EFFECT, "
                        + "STALE_ACK_REJECTED, NO_LOST_EVENT, PRODUCE_ATOMIC, SINGLE_LIVE_LEASE, EVENTUAL_DELIVERY; " + NOT_PROMISED)
                .contains("fenced by a per-row version").contains("delivers and acknowledges in one transaction");
        assertReportIsAbout(results, SAFE);
        assertThat(read(results.resolve("summary.json"))).contains("\"verdict\": \"PASS\"");
        assertThat(read(results.resolve("index.html"))).doesNotContain("id=\"sql-findings\""); // nothing found, nothing drawn
        for (String db : databases()) {
            String column = db.equals("h2") ? "sql" : "sql-" + db;
            assertThat(r.out()).containsPattern("(?m)^" + column + " +PASS +" + SAFE.replace(".", "\\.") + " on ");
            String crash = read(results.resolve(column).resolve("sql-crash-kill.txt"));
            assertThat(crash).as(column).contains("killed after-handler-effect #1 (batch 1, exit 137): recovered")
                    .contains("killed before-ack-commit #1 (batch 1, exit 137): recovered");
        }
    }

    @Test
    void checkFailsAHandlerWhoseEffectCommitsElsewhereWithEffectAtMostOnceOnBothDatabases() throws Exception {
        Path results = EXTERNAL_RESULTS;
        ChildCli.Run r = externalCheck.join();
        assertThat(r.exit()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).contains("## relaycheck: FAIL for the SQL relay `" + EXTERNAL + "` (VIOLATION)")
                .contains(NOT_PROMISED);
        assertReportIsAbout(results, EXTERNAL);
        for (String db : databases()) {
            String column = db.equals("h2") ? "sql" : "sql-" + db;
            assertThat(r.out()).contains("- **" + column + " sql-crash-kill on " + EXTERNAL + ": FAILED " + EXTERNAL + " on " + db
                    + " killed after-handler-effect #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE: E1 applied 2 times");
            String crash = read(results.resolve(column).resolve("sql-crash-kill.txt"));
            assertThat(crash).as(column)
                    .contains("killed before-ack-commit #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE: E1 applied 2 times")
                    .contains("killed after-consumer-commit #1 (batch 1, exit 137): recovered");
        }
        assertThat(read(results.resolve("summary.json"))).contains("\"verdict\": \"FAIL\"").contains("EFFECT_AT_MOST_ONCE: E1 applied 2 times");

        // the finding's trace (where the child was killed, the recovering relay's steps) and the line that replays
        // it: pasted into a fresh process, it kills the relay at the same commit again
        String crash = read(results.resolve("sql").resolve("sql-crash-kill.txt"));
        String round = crash.substring(crash.indexOf("killed after-handler-effect #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE"));
        assertThat(round).contains("child: AT after-handler-effect Deliver(relay-1,E1,t1)")
                .containsPattern("recovery: Deliver\\(relay-2,E1,t\\d+\\) -> APPLIED E1");
        String replay = replayLine(round);
        assertThat(replay).startsWith("./relaycheck sql replay --adapter " + EXTERNAL + " --classpath ")
                .endsWith(" --db h2 --cut after-handler-effect --nth 1 --batch 1");
        ChildCli.Run again = paste(replay);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).contains("killed after-handler-effect #1 (batch 1, exit 137): EFFECT_AT_MOST_ONCE: E1 applied 2 times")
                .contains("REPRODUCED");

        // the same finding in index.html, drawn: the child's steps up to the kill inside the handler's transaction, the
        // tables as the kill left them (the effect already there), the recovery's second effect in red, the same line
        String html = read(results.resolve("index.html"));
        for (String db : databases()) {
            String id = "<h3 id=\"sql-sql-crash-kill-" + EXTERNAL + "-" + db + "\">";
            assertThat(html).as(db).contains(id);
            String finding = html.substring(html.indexOf(id));
            finding = finding.substring(0, finding.indexOf("</p>\n", finding.indexOf("<p class=\"replay\">")));
            assertThat(finding).as(db).contains(": EFFECT_AT_MOST_ONCE (sql-crash-kill)")
                    .contains("aria-label=\"swimlane of EFFECT_AT_MOST_ONCE\"").contains("killed inside its transaction")
                    .contains("SIGKILL relay-1").contains("<span class=\"bad\">effect E1 ×2</span>")
                    .contains("--cut after-handler-effect --nth 1 --batch 1");
        }
    }

    /** The first replay line in {@code text}, as relaycheck prints it ("replay: ./relaycheck sql replay ..."). */
    static String replayLine(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("replay: (\\./relaycheck sql replay [^\\n]*?)(\\)?\\n|$)")
                .matcher(text);
        if (!m.find()) {
            throw new AssertionError("no replay line in:\n" + text);
        }
        return m.group(1);
    }

    /** The printed line as a user pastes it into a shell (its words need no quoting here: the class path has no spaces). */
    static ChildCli.Run paste(String line) {
        return runAsUser(line.substring("./relaycheck ".length()).split(" "));
    }

    /** The pages check wrote name the gruelbox relay, what it was held to, and give each database its column. */
    private static void assertReportIsAbout(Path results, String adapter) throws IOException {
        String md = read(results.resolve("summary.md"));
        String json = read(results.resolve("summary.json"));
        String html = read(results.resolve("index.html"));
        String columns = databases().size() == 2 ? "| sql | sql-postgres |" : "| sql |";
        assertThat(md).contains("SQL relay under test: " + adapter + ": invariants checked: ").contains(NOT_PROMISED)
                .contains("| # | variant | model | jcstress | lincheck " + columns)
                .contains("the shipped broken SQL variants did not run (--controls no)");
        assertThat(json).contains("\"sqlRelay\": {\n    \"id\": \"" + adapter + "\"")
                .contains("\"notPromised\": [\n      \"AGGREGATE_ORDER\"\n    ]")
                .contains("\"name\": \"sql\"");
        assertThat(html).contains("<p id=\"sql-relay\">SQL relay under test: <code>" + adapter + "</code>").contains(NOT_PROMISED);
        if (databases().size() == 2) {
            assertThat(json).contains("\"name\": \"sql-postgres\"");
            assertThat(html).contains(">sql-postgres<");
        }
    }

    @Test
    void anIdleInTransactionTimeoutKillingTheLockHolderIsHarmlessInsideAndDuplicatesOutside() throws Exception {
        Assumptions.assumeTrue(ChildCli.postgresHere(), "PostgreSQL checks skipped: no server binaries on this machine");
        ChildCli.Run inside = runAsUser("sql", "race", "--adapter", PACKAGE + "IdleTimeoutGruelboxAdapter",
                "--classpath", adapterClasspath(), "--db", "postgres", "--rounds", "1", "--controls", "no",
                "--out", "target/relaycheck-timeout-inside");
        assertThat(inside.exit()).as(inside.toString()).isZero();
        assertThat(inside.out()).contains("sql-race: PASS").containsPattern("\\(\\d+ transactions ended by the database\\)");

        ChildCli.Run outside = runAsUser("sql", "race", "--adapter", PACKAGE + "IdleTimeoutExternalEffectGruelboxAdapter",
                "--classpath", adapterClasspath(), "--db", "postgres", "--rounds", "1", "--controls", "no",
                "--out", "target/relaycheck-timeout-outside");
        assertThat(outside.exit()).as(outside.toString()).isEqualTo(1);
        assertThat(outside.out()).contains("sql-race: FAIL").containsPattern("FAILED +\\d+ violations? of \\d+ invariants?: EFFECT_AT_MOST_ONCE x\\d+ \\(first: E\\d+ applied \\d+ times\\)");

        // the race's replay line: the same seed (faults and stalls) and configuration in a fresh process; every
        // stall inside gruelbox's transaction outlasts the timeout, so the duplicate does not hang on thread timing
        String replay = replayLine(outside.out());
        assertThat(replay).contains(" --db postgres --race-seed ");
        ChildCli.Run again = paste(replay);
        assertThat(again.exit()).as(again.toString()).isEqualTo(1);
        assertThat(again.out()).containsPattern("FAILED EFFECT_AT_MOST_ONCE: E\\d+ applied \\d+ times").contains("REPRODUCED");
    }
}
