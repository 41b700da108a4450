package dev.relaycheck.code.check;

import com.team.outbox.RecordingConsumerCheck;
import com.team.outbox.TeamRelayCheck;
import com.team.outbox.broken.EffectOutsideDedup;
import com.team.outbox.broken.NoAggregateRule;
import com.team.outbox.broken.NoSkipLocked;
import com.team.outbox.broken.UnfencedMarkSent;
import com.team.outbox.clocks.DatabaseClockRelay;
import com.team.outbox.clocks.WallClockRelay;
import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.judge.Reached;
import dev.relaycheck.code.run.RelayRun;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A team's relay, written as teams write them (plain JDBC on a DataSource, its own consumer and producer), checked by
 * its own code on H2: the correct one passes with its takeovers and redeliveries reached; each broken copy is caught by
 * the invariant it breaks.
 */
class CodeCheckTest {
    static final int RUNS = 40;

    static CodeCheck.Outcome check(RelayFactory f, Settings s) throws SQLException {
        return CodeCheck.check(() -> f, DbTarget.h2(), s, RUNS, 1, i -> true, line -> { });
    }

    @Test
    void theTeamsRelayPassesWithTakeoversAndRedeliveriesReached() throws SQLException {
        CodeCheck.Outcome o = check(new TeamRelayCheck(), Settings.defaults());
        assertThat(o.failures()).isEmpty();
        assertThat(o.stuck()).isEmpty();
        assertThat(o.reached()).containsKeys(Reached.TAKEOVER, Reached.REDELIVERY, Reached.STALE_WRITE_REFUSED);
        assertThat(o.verdict()).isEqualTo(CodeCheck.Verdict.PASSED);
    }

    @Test
    void aWriteRunByExecuteShowsTheRowsItChanged() throws SQLException {
        String trace = CodeCheck.run(new com.team.outbox.ExecutingRelayCheck(), DbTarget.h2(), Settings.defaults(), CodeCheck.RunId.of(1, 0)).traceText();
        assertThat(trace).containsPattern("UPDATE outbox SET status = 'SENT'.* -> 1 row");
        assertThat(check(new com.team.outbox.ExecutingRelayCheck(), Settings.defaults()).verdict()).isEqualTo(CodeCheck.Verdict.PASSED);
    }

    @Test
    void theRecordingConsumerStandsInForTheTeamsOwn() throws SQLException {
        CodeCheck.Outcome o = check(new RecordingConsumerCheck(), Settings.defaults());
        assertThat(o.verdict()).isEqualTo(CodeCheck.Verdict.PASSED);
    }

    @Test
    void aRelayThatDeliversByTheEventsNameReachesRedeliveries() throws SQLException {
        CodeCheck.Outcome o = check(new com.team.outbox.DeliversByEventName(), Settings.defaults());
        assertThat(o.reached()).containsKey(Reached.REDELIVERY);
        assertThat(o.verdict()).isEqualTo(CodeCheck.Verdict.PASSED);
    }

    @Test
    void aMarkSentByIdAloneIsAStaleWrite() throws SQLException {
        CodeCheck.Failure f = failure(new UnfencedMarkSent(), Settings.defaults(), Invariant.STALE_ACK_REJECTED);
        assertThat(f.finding().detail()).containsPattern("relay-\\d changed E\\d \\(PENDING\\[relay-\\d until t=\\d+s\\] -> DELIVERED\\) "
                + "after relay-\\d took its lease over at step \\d+: a worker whose lease was taken over must not change the row$");
    }

    @Test
    void aClaimWithoutLockingTakesALiveLease() throws SQLException {
        CodeCheck.Failure f = failure(new NoSkipLocked(), Settings.defaults(), Invariant.SINGLE_LIVE_LEASE);
        assertThat(f.finding().detail()).contains("'s lease was live and").contains("both believe they own");
    }

    @Test
    void aClaimWithoutTheAggregateRuleBreaksOrder() throws SQLException {
        CodeCheck.Failure f = failure(new NoAggregateRule(), Settings.defaults(), Invariant.AGGREGATE_ORDER);
        assertThat(f.finding().detail()).containsPattern("E\\d's effect was applied \\(relay-\\d'*\\) before E\\d's, which is ahead of it in SKU-\\d");
    }

    @Test
    void anEffectCommittedBeforeItsMarkerIsAppliedTwice() throws SQLException {
        CodeCheck.Failure f = failure(new EffectOutsideDedup(), Settings.defaults(), Invariant.EFFECT_AT_MOST_ONCE);
        assertThat(f.finding().detail()).containsPattern("E\\d's effect was applied 2 times");
    }

    @Test
    void anOwnerFencedRelayWhoseReplacementReusesTheInstanceIdIsCaughtWithTheReason() throws SQLException {
        Settings reused = Settings.defaults().withInstanceIds(Settings.InstanceIds.REUSED);
        CodeCheck.Failure f = failure(new TeamRelayCheck(), reused, Invariant.STALE_ACK_REJECTED);
        assertThat(f.finding().detail()).contains("share the instance id 'relay-").contains("so a check of the row's owner cannot tell them apart");
    }

    @Test
    void theSameSeedRunsTheSameStatementsInTheSameOrder() throws SQLException {
        CodeCheck.RunId id = CodeCheck.RunId.of(1, 3);
        RunResult a = CodeCheck.run(new TeamRelayCheck(), DbTarget.h2(), Settings.defaults(), id);
        RunResult b = CodeCheck.run(new TeamRelayCheck(), DbTarget.h2(), Settings.defaults(), id);
        assertThat(a.trace()).hasSizeGreaterThan(30);
        assertThat(b.traceText()).isEqualTo(a.traceText());
        assertThat(b.schedule()).isEqualTo(a.schedule());
    }

    @Test
    void aGivenScheduleReplaysTheRunItCameFrom() throws SQLException {
        CodeCheck.Failure f = failure(new UnfencedMarkSent(), Settings.defaults(), Invariant.STALE_ACK_REJECTED);
        RunResult again = new RelayRun(new UnfencedMarkSent(), DbTarget.h2(), Settings.defaults(),
                CodeCheck.strategy("schedule", 0, Settings.defaults(), f.result().schedule()), 0).run();
        assertThat(again.traceText()).isEqualTo(f.result().traceText());
    }

    @Test
    void aRelayOnTheJvmsClockIsRefusedInOneLine() {
        assertThatThrownBy(() -> check(new WallClockRelay(), Settings.defaults())).isInstanceOf(RelayRun.Refused.class)
                .hasMessageContaining("the relay reads the JVM's wall clock").hasMessageNotContaining("\n");
    }

    @Test
    void aRelayOnTheDatabasesClockIsRefusedInOneLine() {
        assertThatThrownBy(() -> check(new DatabaseClockRelay(), Settings.defaults())).isInstanceOf(RelayRun.Refused.class)
                .hasMessageContaining("sent a statement that reads the database's clock (CURRENT_TIMESTAMP)").hasMessageNotContaining("\n");
    }

    static CodeCheck.Failure failure(RelayFactory f, Settings s, Invariant expected) throws SQLException {
        CodeCheck.Outcome o = check(f, s);
        assertThat(o.verdict()).isEqualTo(CodeCheck.Verdict.FAILED);
        assertThat(o.failures()).as(o.failures().toString()).containsKey(expected);
        CodeCheck.Failure failure = o.failures().get(expected);
        if (failure.finding().step() > 0) {
            assertThat(CodeReport.trace(failure.result(), failure.finding().step())).contains("<== " + expected);
        }
        return failure;
    }

    /**
     * A statement that waits on a row lock another instance's open transaction holds is told apart from one that works
     * by what the database says: the run goes on with the others, and the wait ends when the holder commits.
     */
    @org.junit.jupiter.api.Test
    void aStatementWaitingOnALockLetsTheOthersGoOn() throws java.sql.SQLException {
        boolean seen = false;
        for (int i = 0; i < 16 && !seen; i++) {
            String trace = CodeCheck.run(new com.team.outbox.broken.UnfencedMarkSent(), DbTarget.h2(), dev.relaycheck.code.run.Settings.defaults(),
                    CodeCheck.RunId.of(1, i)).traceText();
            seen = trace.contains("-> waits for a lock another transaction holds") && trace.matches("(?s).*'s waiting statement went on: \\d rows?.*");
        }
        org.assertj.core.api.Assertions.assertThat(seen).as("a lock wait, and the statement going on after the holder's commit").isTrue();
    }
}
