package dev.relaycheck.code.check;

import com.team.outbox.misbehaving.LoopingRelay;
import com.team.outbox.misbehaving.ThrowingRelay;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.jdbc.db.DbTarget;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Code under test that loops or throws gets a verdict that says so, never a hang or a silent pass. */
class MisbehavingRelayTest {
    @Test
    void aPollThatNeverReachesItsNextStatementIsNoProgressConfirmedWithItsStack() throws SQLException {
        Settings s = Settings.defaults().withBound(Duration.ofSeconds(1));
        CodeCheck.Outcome o = CodeCheck.check(LoopingRelay::new, DbTarget.h2(), s, 1, 1, i -> true, line -> { });
        assertThat(o.stuck()).hasSize(1);
        CodeCheck.Stuck stuck = o.stuck().get(0);
        assertThat(stuck.confirmed()).as("the same again with three times the bound").isTrue();
        assertThat(stuck.why()).containsPattern("relay-\\d did not reach its next statement, commit or delivery within 3 s")
                .contains("LoopingRelay$1.claim(LoopingRelay.java:");
        assertThat(o.verdict()).isEqualTo(CodeCheck.Verdict.FAILED);
        assertThat(CodeReport.text("LoopingRelay", o, f -> "")).contains("NO PROGRESS in run 0");
    }

    @Test
    void aPollThatAlwaysThrowsDeliversNothingAndTheFindingSaysWhatItThrew() throws SQLException {
        CodeCheck.Outcome o = CodeCheck.check(ThrowingRelay::new, DbTarget.h2(), Settings.defaults(), 2, 1, i -> true, line -> { });
        assertThat(o.failures()).containsKey(Invariant.EVENTUAL_DELIVERY);
        String report = CodeReport.text("ThrowingRelay", o, f -> "");
        assertThat(report).containsPattern("the healing phase.s last poll that failed: relay-\\d.s poll threw org.h2.jdbc.JdbcSQLSyntaxErrorException: Column \"O.STATE\" not found");
    }

    @Test
    void anInstanceWhoseCodeSwallowsItsCrashNeverRunsAgain() throws SQLException {
        int crashes = 0;
        for (int i = 0; i < 12; i++) {
            java.util.List<dev.relaycheck.code.run.TraceLine> trace = CodeCheck.run(new com.team.outbox.misbehaving.SwallowingRelay(), DbTarget.h2(),
                    Settings.defaults(), CodeCheck.RunId.of(1, i)).trace();
            java.util.Set<String> dead = new java.util.TreeSet<>();
            for (dev.relaycheck.code.run.TraceLine l : trace) {
                assertThat(dead).as("run %d step %d: %s", i, l.number(), l.text()).doesNotContain(l.actor());
                if (l.point().startsWith("CRASH at")) {
                    dead.add(l.actor());
                    crashes++;
                }
            }
        }
        assertThat(crashes).as("crashes in the runs").isPositive();
    }
}
