package dev.relaycheck.code.check;

import com.team.outbox.TeamRelayCheck;
import com.team.outbox.broken.NoSkipLocked;
import dev.relaycheck.code.RelayFactory;
import dev.relaycheck.code.judge.Reached;
import dev.relaycheck.code.run.RunResult;
import dev.relaycheck.code.run.Settings;
import dev.relaycheck.model.Invariant;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same relays on PostgreSQL: its row locks and SKIP LOCKED, told apart from work by {@code pg_blocking_pids}. The
 * correct relay passes; a claim that reads without locking takes a live lease under real interleavings.
 */
class CodeCheckPostgresTest {
    static final int RUNS = 24;

    static CodeCheck.Outcome check(RelayFactory f) throws SQLException {
        return CodeCheck.check(() -> f, PostgresForCode.target(), Settings.defaults(), RUNS, 1, i -> true, line -> { });
    }

    @Test
    void theTeamsRelayPassesOnPostgres() throws SQLException {
        CodeCheck.Outcome o = check(new TeamRelayCheck());
        assertThat(o.failures()).isEmpty();
        assertThat(o.reached()).containsKeys(Reached.TAKEOVER, Reached.REDELIVERY);
        assertThat(o.verdict()).isEqualTo(CodeCheck.Verdict.PASSED);
    }

    @Test
    void aClaimWithoutSkipLockedTakesALiveLeaseOnPostgres() throws SQLException {
        CodeCheck.Outcome o = check(new NoSkipLocked());
        assertThat(o.failures()).containsKey(Invariant.SINGLE_LIVE_LEASE);
        CodeCheck.Failure f = o.failures().get(Invariant.SINGLE_LIVE_LEASE);
        RunResult again = new dev.relaycheck.code.run.RelayRun(new NoSkipLocked(), PostgresForCode.target(), Settings.defaults(),
                CodeCheck.strategy(f.result().strategy(), f.run().seed(), Settings.defaults(), f.result().schedule()), f.run().seed()).run();
        assertThat(again.traceText()).as("the replay runs the same statements").isEqualTo(f.result().traceText());
    }

    /**
     * A statement that waits on a row lock another instance's open transaction holds is told apart from one that works
     * by what the database says: the run goes on with the others, and the wait ends when the holder commits.
     */
    @org.junit.jupiter.api.Test
    void aStatementWaitingOnALockLetsTheOthersGoOn() throws java.sql.SQLException {
        boolean seen = false;
        for (int i = 0; i < 16 && !seen; i++) {
            String trace = CodeCheck.run(new com.team.outbox.broken.UnfencedMarkSent(), PostgresForCode.target(), dev.relaycheck.code.run.Settings.defaults(),
                    CodeCheck.RunId.of(1, i)).traceText();
            seen = trace.contains("-> waits for a lock another transaction holds") && trace.matches("(?s).*'s waiting statement went on: \\d rows?.*");
        }
        org.assertj.core.api.Assertions.assertThat(seen).as("a lock wait, and the statement going on after the holder's commit").isTrue();
    }
}
