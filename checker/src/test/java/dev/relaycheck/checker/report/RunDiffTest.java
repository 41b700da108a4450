package dev.relaycheck.checker.report;

import dev.relaycheck.checker.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The before/after comparison on fixed summary.json inputs: a /1 file before (the correct logic), a /2 file after
 * (a user's logic) in which a scenario breaks, one loses a required witness, a variant escapes, a jcstress row
 * turns red and a sampled count changes. The printed diff is pinned by a golden file.
 */
class RunDiffTest {
    private static final Path DIR = Path.of("src/test/resources/diff");

    @TempDir
    Path tmp;

    @Test
    void theDiffOfFixedSummariesMatchesItsGoldenFile() throws IOException {
        RunDiff d = RunDiff.of(RunSummary.read(DIR.resolve("before.json"), "before.json"),
                RunSummary.read(DIR.resolve("after.json"), "after.json"));
        assertThat(d.worse()).isTrue();
        ReportTest.golden("diff.txt", d.text());
    }

    @Test
    void whatGotWorseIsNamedAndACountThatChangedOnlyBySamplingIsNot() {
        RunDiff d = RunDiff.of(RunSummary.read(DIR.resolve("before.json"), "before.json"),
                RunSummary.read(DIR.resolve("after.json"), "after.json"));
        assertThat(d.of(RunDiff.Kind.WORSE)).extracting(RunDiff.Item::text).contains(
                "scenario stale-ack-after-expiry: OK -> VIOLATION STALE_ACK_REJECTED",
                "scenario event-61-lost-ack: lost witness STALE_ACK (required), reached 8 times before, never now",
                "catalogue variant release-ignores-token escaped every checker");
        assertThat(d.of(RunDiff.Kind.WORSE)).anyMatch(i -> i.text().startsWith("variant release-ignores-token (model): CAUGHT -> ESCAPED"));
        // the jcstress count of a row whose verdict did not change is noise, not news
        assertThat(d.text()).doesNotContain("claim-ignores-lease");
        assertThat(d.newCounterexamples()).singleElement().satisfies(c -> assertThat(c.replay()).isEqualTo("./relaycheck replay rc1:CCCC"));
    }

    @Test
    void aRunComparedWithItselfHasNoChange() {
        RunSummary s = RunSummary.read(DIR.resolve("after.json"), "after.json");
        RunDiff d = RunDiff.of(s, s);
        assertThat(d.worse()).isFalse();
        assertThat(d.items()).isEmpty();
        assertThat(d.headline()).startsWith("NO CHANGE");
    }

    @Test
    void theReverseChangeIsBetterWhereTheForwardOneWasWorse() {
        RunDiff d = RunDiff.of(RunSummary.read(DIR.resolve("after.json"), "after.json"),
                RunSummary.read(DIR.resolve("before.json"), "before.json"));
        assertThat(d.of(RunDiff.Kind.BETTER)).extracting(RunDiff.Item::text)
                .contains("verdict FAIL -> PASS", "scenario stale-ack-after-expiry: VIOLATION STALE_ACK_REJECTED -> OK",
                        "scenario event-61-lost-ack: reaches witness STALE_ACK now (8 times)");
        // what the forward change gained, the reverse one loses
        assertThat(d.of(RunDiff.Kind.WORSE)).extracting(RunDiff.Item::text).containsExactly(
                "scenario crash-restart: lost witness DELIVERY_RETRIED, reached 3 times before, never now");
    }

    @Test
    void aCheckerThatRanInOneRunOnlyIsOneLineUnlessItFoundSomething() {
        RunSummary.RowLine model = new RunSummary.RowLine("model", "bfs", "ack-ignores-token", "CATCH", "CAUGHT", "STALE_ACK_REJECTED");
        RunSummary before = new RunSummary("a", "PASS", "correct", List.of(), List.of(), List.of(model), List.of());
        RunSummary after = new RunSummary("b", "FAIL", "correct", List.of(), List.of(), List.of(model,
                new RunSummary.RowLine("jcstress", "Lease_01_DoubleClaim", "correct", "PASS", "PASS", "no forbidden outcome"),
                new RunSummary.RowLine("jcstress", "Lease_02_StaleAckAfterExpiry", "correct", "PASS", "FAILED", "forbidden seen")),
                List.of());
        RunDiff d = RunDiff.of(before, after);
        assertThat(d.items()).extracting(RunDiff.Item::text).containsExactly("verdict PASS -> FAIL",
                "jcstress Lease_02_StaleAckAfterExpiry on correct: new in this run, FAILED forbidden seen",
                "jcstress: not run before, 2 results now");
        assertThat(RunDiff.of(after, before).items()).extracting(RunDiff.Item::text)
                .containsExactly("verdict FAIL -> PASS", "jcstress: not run in this run (2 results before)");
    }

    @Test
    void aRelayCheckedByItsOwnCodeIsNamedAsTheSubjectNotTheReferenceLogic() throws IOException {
        String json = "{\"schema\": \"relaycheck-summary/2\", \"verdict\": \"%s\", \"logic\": \"correct\", \"codeRelay\": \"%s\", "
                + "\"failures\": [], \"scenarios\": [], \"checkers\": [], \"counterexamples\": []}";
        Files.writeString(tmp.resolve("old.json"), json.formatted("FAIL", "com.acme.RelayCheck"), StandardCharsets.UTF_8);
        Files.writeString(tmp.resolve("new.json"), json.formatted("PASS", "com.acme.RelayCheck"), StandardCharsets.UTF_8);
        Files.writeString(tmp.resolve("other.json"), json.formatted("PASS", "com.acme.OtherCheck"), StandardCharsets.UTF_8);
        RunSummary old = RunSummary.read(tmp.resolve("old.json"), "old");
        RunDiff d = RunDiff.of(old, RunSummary.read(tmp.resolve("new.json"), "new"));
        assertThat(d.text()).contains("  before: old (relay com.acme.RelayCheck by its own code, FAIL)\n")
                .contains("  after:  new (relay com.acme.RelayCheck by its own code, PASS)\n").doesNotContain("logic correct");
        assertThat(RunDiff.of(old, RunSummary.read(tmp.resolve("other.json"), "other")).items()).extracting(RunDiff.Item::text)
                .contains("relay under test relay com.acme.RelayCheck by its own code -> relay com.acme.OtherCheck by its own code");
    }

    @Test
    void badInputIsAUsageErrorNamingTheFile() throws IOException {
        Files.writeString(tmp.resolve("summary.json"), "{\"schema\": \"relaycheck-summary/1\", \"verdict\": ", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RunSummary.read(tmp, "runs/a")).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("runs/a is not valid JSON");
        Files.writeString(tmp.resolve("other.json"), "{\"name\": 1}", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RunSummary.read(tmp.resolve("other.json"), "other.json")).isInstanceOf(UsageException.class)
                .hasMessageContaining("not a relaycheck summary.json");
        assertThatThrownBy(() -> RunSummary.read(tmp.resolve("empty"), "empty")).isInstanceOf(UsageException.class)
                .hasMessage("no such file or directory: empty");
        Files.createDirectories(tmp.resolve("run"));
        assertThatThrownBy(() -> RunSummary.read(tmp.resolve("run"), "run")).isInstanceOf(UsageException.class)
                .hasMessageStartingWith("no summary.json in run");
    }

    @Test
    void theSummaryOfAReportReadsBackAsItWasWritten() {
        Report r = ReportTest.report();
        RunSummary s = RunSummary.of(r, 0, "now");
        assertThat(s.logic()).isEqualTo("correct");
        assertThat(s.scenarios()).hasSize(r.model().subject().size());
        assertThat(s.scenarios().get(0).required()).isNotEmpty();
        assertThat(s.counterexamples()).hasSize(r.counterexamples().size());
    }
}
