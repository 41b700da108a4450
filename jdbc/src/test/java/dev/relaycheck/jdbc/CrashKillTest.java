package dev.relaycheck.jdbc;

import dev.relaycheck.jdbc.crash.CrashCheck;
import dev.relaycheck.jdbc.crash.CrashKill;
import dev.relaycheck.jdbc.crash.CrashRound;
import dev.relaycheck.jdbc.crash.CutPoint;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.jdbc.relay.RelayUnderTest;
import dev.relaycheck.jdbc.relay.SqlVariant;
import dev.relaycheck.jdbc.result.SqlCheckResult;
import dev.relaycheck.jdbc.result.SqlFinding;
import dev.relaycheck.model.summary.SummaryRow;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real child JVM killed with SIGKILL at every cut point, then a fresh relay on the same H2 files.
 * Kills per cut point from -Drelaycheck.crash.rounds (default 1; 3 with -Drelaycheck.long=true).
 */
class CrashKillTest {
    static final int ROUNDS = Integer.getInteger("relaycheck.crash.rounds", Boolean.getBoolean("relaycheck.long") ? 3 : 1);

    @Test
    void correctRelayRecoversFromEveryKillAndEveryControlIsCaught() {
        SqlCheckResult r = SqlChecks.crashKill(RelayUnderTest.of(SqlVariant.CORRECT), DbTarget.h2(), ROUNDS, Path.of("target", "crash-kill-test"), System.out);
        System.out.print(r.summary());
        assertThat(r.rows()).extracting(SummaryRow::target).containsExactlyInAnyOrder("correct", "marker-before-effect",
                "effect-before-marker", "ack-before-deliver", "no-dedup-marker", "outbox-outside-transaction",
                CrashCheck.H2_WRITE_DELAY);
        assertThat(r.rows()).allSatisfy(row -> assertThat(row.ok()).as(row.tsv()).isTrue());
        assertThat(r.report()).contains("exit 137").doesNotContain("exit 0)");
        assertThat(r.runs()).isGreaterThanOrEqualTo((long) ROUNDS * CutPoint.of(false).size() + CrashCheck.controls().size());
    }

    @Test
    void brokenConsumerLosesTheEffectWhenKilledBetweenItsTwoCommits() throws Exception {
        CrashRound round = new CrashKill(Path.of("target", "crash-kill-test"))
                .round(RelayUnderTest.of(SqlVariant.MARKER_BEFORE_EFFECT), DbTarget.h2(), true, CutPoint.AFTER_CONSUMER_COMMIT, 3, 2, "marker-first-unit");
        assertThat(round.exitCode()).isEqualTo(CrashKill.SIGKILL_EXIT);
        assertThat(round.at()).startsWith("AT after-consumer-commit Deliver(relay-1,E2,").endsWith("HALF_APPLIED E2 marker");
        assertThat(round.problems()).anyMatch(p -> p.startsWith("MARKER_IFF_EFFECT: E2"));
        assertThat(round.recovery()).anyMatch(a -> a.endsWith("DUPLICATE E2")); // the marker alone fooled the dedup
        // the finding the report draws: the child's steps as it printed them, the kill, the recovery read back
        SqlFinding f = round.finding(DbTarget.h2()).orElseThrow();
        assertThat(f.title()).isEqualTo("MARKER_IFF_EFFECT");
        assertThat(f.detail()).startsWith("E2");
        List<String> phases = f.steps().stream().map(SqlFinding.Observed::phase).distinct().toList();
        assertThat(phases).containsExactly("child", "kill", "recovery");
        SqlFinding.Observed killedAt = f.steps().stream().filter(s -> s.phase().equals("child")).reduce((a, b) -> b).orElseThrow();
        assertThat(killedAt.step().toString()).startsWith("Deliver(relay-1,E2,");
        assertThat(killedAt.outcome()).contains("then killed");
        SqlFinding.Observed kill = f.steps().stream().filter(s -> s.phase().equals("kill")).findFirst().orElseThrow();
        assertThat(kill.after().consumer().hasMarkerFor("E2")).isTrue(); // the marker survived the kill, the effect never came
        assertThat(kill.after().consumer().effectCount("E2")).isZero();
        assertThat(f.steps()).filteredOn(s -> s.phase().equals("recovery")).allMatch(s -> s.before() != null && s.after() != null)
                .anyMatch(s -> s.outcome().equals("DUPLICATE E2"));
        assertThat(f.trace()).contains("kill      Crash(relay-1)");
        assertThat(f.replay()).endsWith("--cut after-consumer-commit --nth 3 --batch 2");
    }

    @Test
    void aChildPastItsTimeLimitTwiceIsInconclusiveNeitherAFailureNorACatch() throws Exception {
        // a real child JVM, and a limit no JVM meets (it cannot even start in a millisecond): what a loaded
        // machine does to a correct child with the real limit
        CrashKill tiny = new CrashKill(Path.of("target", "crash-kill-test"), Duration.ofMillis(1));
        CrashRound correct = tiny.round(RelayUnderTest.of(SqlVariant.CORRECT), DbTarget.h2(), true, CutPoint.AFTER_ACK, 1, 1, "tiny-limit");
        assertThat(correct.concluded()).isFalse();
        assertThat(correct.clean()).isFalse();
        assertThat(correct.problems()).isEmpty();
        assertThat(correct.timedOut()).startsWith("child did not report within 1 ms")
                .contains("again on a second try: child did not report within 2 ms");
        CrashCheck.TargetResult subject = new CrashCheck.TargetResult("correct", true, List.of(correct));
        assertThat(subject.verdict()).isEqualTo(SummaryRow.INCONCLUSIVE);
        assertThat(subject.detail()).contains("INCONCLUSIVE: child did not report within 1 ms");
        SqlCheckResult check = new SqlCheckResult(SqlCheckResult.CRASH_KILL, List.of(SummaryRow.of(SqlCheckResult.CRASH_KILL, "correct", true,
                subject.verdict(), subject.detail())), 2, "");
        assertThat(check.passed()).isFalse();
        assertThat(check.inconclusive()).isTrue();
        assertThat(check.summary()).startsWith("sql-crash-kill: INCONCLUSIVE");

        // nor does a time-out expose a broken relay: the control is not caught by the machine's load
        CrashRound broken = tiny.round(RelayUnderTest.of(SqlVariant.MARKER_BEFORE_EFFECT), DbTarget.h2(), true,
                CutPoint.AFTER_CONSUMER_COMMIT, 1, 1, "tiny-limit-control");
        CrashCheck.TargetResult control = new CrashCheck.TargetResult("marker-before-effect", false, List.of(broken));
        assertThat(control.verdict()).isEqualTo(SummaryRow.INCONCLUSIVE);
        assertThat(control.asExpected()).isFalse();
    }

    @Test
    void killedChildReallyDiedOfSigkillAtTheRequestedCommit() throws Exception {
        CrashRound round = new CrashKill(Path.of("target", "crash-kill-test"))
                .round(RelayUnderTest.of(SqlVariant.CORRECT), DbTarget.h2(), true, CutPoint.AFTER_ACK, 3, 1, "third-ack-unit");
        assertThat(round.exitCode()).isEqualTo(CrashKill.SIGKILL_EXIT);
        assertThat(round.at()).isEqualTo("AT after-ack Ack(relay-1,E3,t3) ACKED E3/t3");
        assertThat(round.problems()).isEmpty();
        assertThat(round.recovery()).noneMatch(a -> a.contains("E1") || a.contains("E2") || a.contains("E3"));
        assertThat(round.recovery()).anyMatch(a -> a.equals("Ack(relay-2,E4,t4) -> ACKED E4/t4"));
        assertThat(List.of(round.summary())).allMatch(s -> s.contains("recovered"));
    }
}
